import { decodeSegment } from '../../core/decode-segment.ts'
import { JsonEntries, streamedJsonResponse } from '../../core/json-chunks.ts'
import { act, created, mount, noContentAnswer, ok, refused, type BodySpec, type ControlCall, type ControlRoute } from '../../core/routing/index.ts'
import { CONTROL_PREFIX } from './urls.ts'
import { redactEntries, redactRecords } from './redact.ts'

const SETTINGS: BodySpec = { kind: 'object', limit: 'control' }
const CLOCK_MOVE: BodySpec = { ...SETTINGS, fields: ['advance', 'set'] }

const emulator = (call: ControlCall) => call.context.emulator
const clock = (call: ControlCall) => ({ now: emulator(call).clock.now().toISOString(), frozen: emulator(call).clock.frozen })

/**
 * The control API's own routes under `/_doppel/`: health, reset, clock, journal, state, faults. The
 * services' set-up routes and the features' live with them; `features/doppel/control-table.ts` puts
 * every row together into the one table the router (HTTP server, MSW, `doppel.fetch`), the in-process
 * calls (`callControl`) and the server's guard read: method, path, who may call it, how its body is
 * read, and what it does.
 */
export const CONTROL_ROUTES: readonly ControlRoute[] = mount(CONTROL_PREFIX, [
  { method: 'GET', path: 'health', access: 'open', run: () => ok({ status: 'ok' }) },
  {
    method: 'POST',
    path: 'reset',
    access: 'control',
    run: act((call) => emulator(call).reset()),
  },
  { method: 'GET', path: 'clock', access: 'control', run: (call) => ok(clock(call)) },
  {
    method: 'POST',
    path: 'clock',
    access: 'control',
    body: CLOCK_MOVE,
    run: (call) => {
      const body = call.body as Record<string, unknown>
      if (body.advance !== undefined && body.set !== undefined) return refused(400, 'Failed to move the clock: give "advance" or "set", not both')
      if (typeof body.advance === 'string' || typeof body.advance === 'number') emulator(call).clock.advance(body.advance)
      else if (typeof body.set === 'string') emulator(call).clock.set(body.set)
      else return refused(400, 'Failed to move the clock: give "advance" (duration) or "set" (RFC 3339 time)')
      return ok(clock(call))
    },
  },
  {
    method: 'GET',
    path: 'journal',
    access: 'control',
    run: (call) => {
      const { journal } = emulator(call)
      const redact = !call.management
      // Each entry is formatted (and redacted) only as the answer reaches it, piece by piece: a full journal
      // of large bodies is sent without holding other requests.
      const entries = journal.lazyEntries((entry) => (redact ? redactEntries([entry])[0]! : entry))
      return streamedJsonResponse(200, { total: journal.total, limit: journal.limit, bodyLimit: journal.bodyLimit, entries })
    },
  },
  { method: 'DELETE', path: 'journal', access: 'control', run: act((call) => emulator(call).journal.clear()) },
  {
    method: 'GET',
    path: 'state',
    access: 'control',
    run: (call) => {
      // Taken at once, written (and redacted) piece by piece as it is sent: a large state holds no other request.
      const collections = emulator(call).store.entries()
      return streamedJsonResponse(
        200,
        new JsonEntries(collections.map(([name, records]) => [name, new JsonEntries(call.management ? records : redactRecords(name, records))])),
      )
    },
  },
  { method: 'POST', path: 'faults', access: 'control', body: SETTINGS, run: (call) => created({ id: emulator(call).faults.add(call.body as never).id }) },
  { method: 'GET', path: 'faults', access: 'control', run: (call) => ok({ faults: emulator(call).faults.list() }) },
  { method: 'DELETE', path: 'faults', access: 'control', run: act((call) => emulator(call).faults.clear()) },
  {
    method: 'DELETE',
    path: 'faults/:id',
    access: 'control',
    run: (call) => {
      // Fault ids are plain text: an id that does not decode names no fault.
      const id = decodeSegment(call.params.id!)
      return id !== undefined && emulator(call).faults.remove(id) ? noContentAnswer : refused(404, 'no such fault')
    },
  },
])
