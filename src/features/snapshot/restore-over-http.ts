/**
 * `PUT /_doppel/snapshot`: the restore `doppel.restore()` does, without holding other requests. A large
 * body is parsed off the event loop, the snapshot is checked in slices, and the state is replaced in one
 * piece at the end; requests meanwhile see the old state. The route claims the instance's one replacement
 * before it reads the body (`control-routes.ts`), so one restore of an instance runs at a time.
 */
import { NESTING_LIMIT, NestingTooDeepError } from '../../core/bounded-parse.ts'
import type { Emulator } from '../../core/emulator.ts'
import { noContentAnswer, type BodySpec, type ControlAnswer } from '../../core/routing/index.ts'
import { bodyRefusal, parseControlJson, type ReadBody } from '../../services/control/index.ts'
import { OFF_THREAD_SIZE, parseJsonOffThread } from '../documents/index.ts'
import { restoreSnapshotInSlices } from './snapshot-document.ts'

export async function restoreOverHttp(emulator: Emulator, bytes: Uint8Array, spec: BodySpec): Promise<ControlAnswer> {
  const parsed = bytes.byteLength > OFF_THREAD_SIZE ? await parseJsonOffThread(bytes, NESTING_LIMIT, 'the snapshot', emulator.sharedLimits.parseWorkers) : undefined
  let read: ReadBody
  // Small, or too dense for a parse worker's heap: parsed here (millions of tiny values hold the thread while they are).
  if (parsed === undefined || ('error' in parsed && parsed.error === 'heap')) read = parseControlJson(new TextDecoder().decode(bytes), spec)
  else if ('error' in parsed) {
    // The body reader's own answers, as for a body parsed here.
    read = parseControlJson('', spec, () => {
      throw parsed.error === 'nesting' ? new NestingTooDeepError(parsed.limit) : new SyntaxError('not JSON')
    })
  } else read = { value: parsed.value }
  if (read.refusal) return bodyRefusal(read.refusal)
  const value = read.value
  const jsonLength = parsed && 'jsonLength' in parsed ? parsed.jsonLength : JSON.stringify(value).length
  await restoreSnapshotInSlices(emulator, value, jsonLength)
  return noContentAnswer
}
