/**
 * `GET /_doppel/snapshot` (the whole state as one versioned JSON document) and `PUT /_doppel/snapshot`
 * (replace the state with one, checked whole first). Snapshots carry secrets: both need a management token.
 */
import { NestingTooDeepError, parseJsonBounded } from '../core/bounded-parse.ts'
import type { RequestContext } from '../core/glossary.ts'
import { BodyTooLargeError, jsonResponse, readBodyText } from '../core/http.ts'
import { LightResponse } from '../core/light-response.ts'
import { SnapshotError } from '../core/snapshot/shape.ts'
import { restoreSnapshot, takeSnapshot } from '../snapshot/snapshot-document.ts'
import { hasManagementToken } from './management-token.ts'

export const SNAPSHOT_PATH = '/_doppel/snapshot'

/** Big enough for 100k-record states; a snapshot is read whole before anything changes. */
const SNAPSHOT_BODY_LIMIT = 256 * 1024 * 1024

const fail = (status: number, message: string) => jsonResponse(status, { errors: [message] })

export async function snapshotRoute(request: Request, context: RequestContext): Promise<Response> {
  const { emulator } = context
  if (request.method !== 'GET' && request.method !== 'PUT') return fail(405, 'unsupported operation')
  if (!hasManagementToken(request, context)) return fail(403, 'permission denied')
  if (request.method === 'GET') return jsonResponse(200, takeSnapshot(emulator))
  let text: string
  try {
    text = await readBodyText(request, SNAPSHOT_BODY_LIMIT)
  } catch (error) {
    if (error instanceof BodyTooLargeError) return fail(413, `Failed to read the snapshot: it is over ${SNAPSHOT_BODY_LIMIT} bytes`)
    throw error
  }
  let value: unknown
  try {
    value = parseJsonBounded(text)
  } catch (error) {
    if (error instanceof NestingTooDeepError) return fail(400, `Failed to read the snapshot: ${error.message}`)
    return fail(400, 'Failed to read the snapshot: the body is not complete JSON')
  }
  try {
    restoreSnapshot(emulator, value)
  } catch (error) {
    if (error instanceof SnapshotError) return fail(400, error.message)
    throw error
  }
  return new LightResponse(null, { status: 204 })
}
