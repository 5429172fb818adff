import { act, mount, type BodySpec, type ControlCall, type ControlRoute } from '../../core/routing/index.ts'
import { streamedJsonResponse } from '../../core/json-chunks.ts'
import { CONTROL_PREFIX } from '../../services/control/urls.ts'

const SNAPSHOT: BodySpec = { kind: 'json', limit: 'snapshot', names: 'snapshot' }

// The snapshot codecs are imported on first use: the server's guard reads the control table at start-up.
const snapshots = () => import('./snapshot-document.ts')
const emulator = (call: ControlCall) => call.context.emulator

/** `GET` and `PUT /_doppel/snapshot`. Snapshots carry secrets: both need a management token, on loopback too. */
export const SNAPSHOT_ROUTES: readonly ControlRoute[] = mount(CONTROL_PREFIX, [
  // Taken at once, written out piece by piece: a large state does not hold other requests while it is sent.
  { method: 'GET', path: 'snapshot', access: 'management', run: async (call) => streamedJsonResponse(200, (await snapshots()).takeSnapshot(emulator(call))) },
  {
    method: 'PUT',
    path: 'snapshot',
    access: 'management',
    body: SNAPSHOT,
    run: act(async (call) => (await snapshots()).restoreSnapshot(emulator(call), call.body)),
  },
])
