/**
 * `PUT /_doppel/snapshot`: the restore `doppel.restore()` does, without holding other requests. A large
 * body is parsed off the event loop, the snapshot is checked in slices, and the state is replaced in one
 * piece at the end; requests meanwhile see the old state. One restore of an instance runs at a time.
 */
import { NESTING_LIMIT, NestingTooDeepError } from '../../core/bounded-parse.ts'
import type { Emulator } from '../../core/emulator.ts'
import { noContent, refused, type BodySpec, type ControlAnswer } from '../../core/routing/index.ts'
import { parseControlJson } from '../../services/control/control-body.ts'
import { OFF_THREAD_SIZE, parseJsonOffThread } from '../documents/parse-off-thread.ts'
import { restoreSnapshotInSlices } from './snapshot-document.ts'

export async function restoreOverHttp(emulator: Emulator, bytes: Uint8Array, spec: BodySpec): Promise<ControlAnswer> {
  const release = emulator.claimReplacement()
  if (release === undefined) return refused(409, 'Failed to restore the snapshot: another restore of this instance is under way; try again when it is done')
  try {
    let value: unknown
    let jsonLength: number
    if (bytes.byteLength <= OFF_THREAD_SIZE) {
      const read = parseControlJson(new TextDecoder().decode(bytes), spec)
      if (read.refusal) return refused(read.refusal.status, read.refusal.message)
      value = read.value
      jsonLength = JSON.stringify(value).length
    } else {
      const parsed = await parseJsonOffThread(bytes, NESTING_LIMIT, 'the snapshot', emulator.sharedLimits.parseWorkers)
      if ('error' in parsed) {
        if (parsed.error === 'heap') return refused(413, `Failed to read the snapshot: it is too large to parse: it needs more than ${parsed.heapMb} MiB`)
        // The body reader's own answers, as for a body parsed here.
        const read = parseControlJson('', spec, () => {
          throw parsed.error === 'nesting' ? new NestingTooDeepError(parsed.limit) : new SyntaxError('not JSON')
        })
        return refused(read.refusal!.status, read.refusal!.message)
      }
      ;({ value, jsonLength } = parsed)
    }
    await restoreSnapshotInSlices(emulator, value, jsonLength)
    return noContent
  } finally {
    release()
  }
}
