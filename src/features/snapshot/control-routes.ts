import { mount, refused, type BodySpec, type ControlCall, type ControlRoute } from '../../core/routing/index.ts'
import { streamedJsonResponse } from '../../core/json-chunks.ts'
import { CONTROL_PREFIX } from '../../services/control/urls.ts'

// Read as bytes: a large snapshot is parsed off the event loop (`restoreOverHttp`), with the body reader's answers.
const SNAPSHOT: BodySpec = { kind: 'bytes', limit: 'snapshot', names: 'snapshot' }

// The snapshot codecs are imported on first use: the server's guard reads the control table at start-up.
const snapshots = () => import('./snapshot-document.ts')
const restores = () => import('./restore-over-http.ts')
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
    // Claimed before the body is read: a second restore is refused at once, not after its whole upload.
    claim: (context) =>
      context.emulator.claimReplacement() ?? refused(409, 'Failed to restore the snapshot: another restore of this instance is under way; try again when it is done'),
    run: async (call) => (await restores()).restoreOverHttp(emulator(call), call.body as Uint8Array, SNAPSHOT),
  },
])
