/**
 * What the upstream held when the recording started. A doppel upstream's snapshot (`GET /_doppel/snapshot`
 * with a management token) is restored by the first step of every recorded scenario, so a replay starts
 * from the same fixtures, faker values and random position as the recording did.
 */
import { errorKind } from '../../core/doppel-error.ts'
import { controlPath } from '../../services/control/urls.ts'

/** The snapshot cannot be read: said at start, in one line. */
export class StartingStateError extends errorKind('StartingStateError', 'DOPPEL_STARTUP') {}

/** The upstream's snapshot, read with `token` (any profile accepts it as `Authorization: Bearer`). */
export async function readStartingState(upstream: string, token: string, fetchImpl: typeof globalThis.fetch = globalThis.fetch): Promise<unknown> {
  const url = `${upstream.replace(/\/+$/, '')}${controlPath('snapshot')}`
  let response: Response
  try {
    response = await fetchImpl(url, { headers: { Authorization: `Bearer ${token}`, Accept: 'application/json' }, signal: AbortSignal.timeout(30_000) })
  } catch (error) {
    const cause = (error as Error & { cause?: Error }).cause?.message ?? (error as Error).message
    throw new StartingStateError(`doppel record: cannot read the upstream's state at ${url}: ${cause}`)
  }
  const text = await response.text()
  if (response.status !== 200) throw new StartingStateError(`doppel record: cannot read the upstream's state at ${url}: ${response.status} ${text.trim().slice(0, 200)}`)
  try {
    return JSON.parse(text) as unknown
  } catch {
    throw new StartingStateError(`doppel record: cannot read the upstream's state at ${url}: the answer is not JSON`)
  }
}
