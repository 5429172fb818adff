import { decodeSegment } from '../../core/decode-segment.ts'
import { dashboard } from '../../features/dashboard/dashboard-route.ts'
import type { RegistryFixture, SeedResult } from '../registry/glossary.ts'
import { CLOUD_ROUTES } from './cloud-routes.ts'
import type { BodySpec } from './control-body.ts'
import { compileRoutes, created, noContent, ok, refused, type ControlAnswer, type ControlCall, type ControlRoute } from './control-route.ts'
import { redactEntries, redactSnapshot } from './redact.ts'

const SETTINGS: BodySpec = { kind: 'object', limit: 'control' }
const REGISTRY_SETUP: BodySpec = { kind: 'object', limit: 'control', required: true }
const SNAPSHOT: BodySpec = { kind: 'json', limit: 'snapshot', names: 'snapshot' }
const FIXTURE: BodySpec = {
  kind: 'text',
  limit: 'control',
  types: ['application/json', 'application/yaml', 'application/x-yaml', 'text/yaml', 'text/x-yaml'],
}

const emulator = (call: ControlCall) => call.context.emulator
/** A route that acts and answers 204. */
const act = (change: (call: ControlCall) => unknown) => async (call: ControlCall): Promise<ControlAnswer> => {
  await change(call)
  return noContent
}
const clock = (call: ControlCall) => ({ now: emulator(call).clock.now().toISOString(), frozen: emulator(call).clock.frozen })

// The snapshot codecs and the registry are imported on first use: the server's guard reads this table
// at start-up, and the services behind these routes load lazily (see `doppel.ts`).
const snapshots = () => import('../../features/snapshot/snapshot-document.ts')

async function loadRegistry(call: ControlCall, fixture: RegistryFixture, shown: (result: SeedResult) => unknown): Promise<ControlAnswer> {
  const { loadRegistryFixture, RegistryFixtureError } = await import('../registry/index.ts')
  try {
    return created(shown(loadRegistryFixture(emulator(call), fixture)))
  } catch (error) {
    if (error instanceof RegistryFixtureError) return refused(400, error.message)
    throw error
  }
}

const NO_TENANTS = 'no tenants here: tenants live on the root instance of a server (doppel serve, --max-tenants)'

/**
 * Every route of the control API under `/_doppel/`, the one description the router (HTTP server, MSW,
 * `doppel.fetch`), the in-process calls (`callControl`) and the server's guard read: method, path,
 * who may call it, how its body is read, and what it does.
 */
const ROUTES: ControlRoute[] = [
  { method: 'GET', path: '/_doppel/health', access: 'open', run: () => ok({ status: 'ok' }) },
  {
    method: 'POST',
    path: '/_doppel/reset',
    access: 'control',
    run: act((call) => emulator(call).reset()),
  },
  { method: 'GET', path: '/_doppel/clock', access: 'control', run: (call) => ok(clock(call)) },
  {
    method: 'POST',
    path: '/_doppel/clock',
    access: 'control',
    body: SETTINGS,
    run: (call) => {
      const body = call.body as Record<string, unknown>
      if (typeof body.advance === 'string' || typeof body.advance === 'number') emulator(call).clock.advance(body.advance)
      else if (typeof body.set === 'string') emulator(call).clock.set(body.set)
      else return refused(400, 'Failed to move the clock: give "advance" (duration) or "set" (RFC 3339 time)')
      return ok(clock(call))
    },
  },
  {
    method: 'GET',
    path: '/_doppel/journal',
    access: 'control',
    run: (call) => {
      const { journal } = emulator(call)
      return ok({ total: journal.total, limit: journal.limit, entries: call.management ? journal.entries() : redactEntries(journal.entries()) })
    },
  },
  { method: 'DELETE', path: '/_doppel/journal', access: 'control', run: act((call) => emulator(call).journal.clear()) },
  {
    method: 'GET',
    path: '/_doppel/state',
    access: 'control',
    run: (call) => {
      const snapshot = emulator(call).store.snapshot()
      return ok(call.management ? snapshot : redactSnapshot(snapshot))
    },
  },
  // Snapshots carry secrets: both need a management token, on loopback too.
  { method: 'GET', path: '/_doppel/snapshot', access: 'management', run: async (call) => ok((await snapshots()).takeSnapshot(emulator(call))) },
  {
    method: 'PUT',
    path: '/_doppel/snapshot',
    access: 'management',
    body: SNAPSHOT,
    run: act(async (call) => (await snapshots()).restoreSnapshot(emulator(call), call.body)),
  },
  { method: 'POST', path: '/_doppel/faults', access: 'control', body: SETTINGS, run: (call) => created({ id: emulator(call).faults.add(call.body as never).id }) },
  { method: 'GET', path: '/_doppel/faults', access: 'control', run: (call) => ok({ faults: emulator(call).faults.list() }) },
  { method: 'DELETE', path: '/_doppel/faults', access: 'control', run: act((call) => emulator(call).faults.clear()) },
  {
    method: 'DELETE',
    path: '/_doppel/faults/:id',
    access: 'control',
    run: (call) => {
      // Fault ids are plain text: an id that does not decode names no fault.
      const id = decodeSegment(call.params.id!)
      return id !== undefined && emulator(call).faults.remove(id) ? noContent : refused(404, 'no such fault')
    },
  },
  {
    // A YAML or JSON fixture, loaded as `createDoppel({ fixtures })` would; `?file=` names it in messages.
    // The loader is imported on first use (it brings the YAML parser and faker).
    method: 'POST',
    path: '/_doppel/fixtures',
    access: 'control',
    body: FIXTURE,
    run: async (call) => {
      const { loadFixtures, FixtureError } = await import('../../features/fixtures/index.ts')
      try {
        return created({ loaded: await loadFixtures(emulator(call), call.body as string, call.url.searchParams.get('file') ?? 'fixtures') })
      } catch (error) {
        if (error instanceof FixtureError) return { status: 400, body: { errors: error.lines() } }
        throw error
      }
    },
  },
  {
    method: 'POST',
    path: '/_doppel/registry/tokens',
    access: 'control',
    body: REGISTRY_SETUP,
    run: (call) => loadRegistry(call, { tokens: [call.body as NonNullable<RegistryFixture['tokens']>[number]] }, (result) => result.tokens[0]),
  },
  {
    method: 'POST',
    path: '/_doppel/registry/fixtures',
    access: 'control',
    body: REGISTRY_SETUP,
    run: (call) => loadRegistry(call, call.body as RegistryFixture, (result) => result),
  },
  ...CLOUD_ROUTES,
  // The dashboard's static files: a browser opening a page cannot send a token; the page's own calls do.
  { method: 'GET', path: '/_doppel/ui', access: 'open', run: (call) => dashboard(call.request) },
  { method: 'HEAD', path: '/_doppel/ui', access: 'open', run: (call) => dashboard(call.request) },
  { method: 'GET', path: '/_doppel/ui/*', access: 'open', run: (call) => dashboard(call.request) },
  { method: 'HEAD', path: '/_doppel/ui/*', access: 'open', run: (call) => dashboard(call.request) },
  {
    method: 'GET',
    path: '/_doppel/tenants',
    access: 'control',
    run: ({ context: { tenants } }) =>
      tenants === undefined
        ? refused(404, NO_TENANTS)
        : ok({ tenants: tenants.list(), max_tenants: tenants.maxTenants, idle_timeout_seconds: tenants.idleTimeoutMs / 1000 }),
  },
  {
    method: 'DELETE',
    path: '/_doppel/tenants/:id',
    access: 'control',
    run: ({ context: { tenants }, params }) => {
      if (tenants === undefined) return refused(404, NO_TENANTS)
      return tenants.drop(params.id!) ? noContent : refused(404, `no such tenant "${params.id}"`)
    },
  },
  {
    method: 'GET',
    path: '/_doppel/openapi.json',
    access: 'control',
    run: async (call) => {
      const { openApiDocument } = await import('../../features/openapi/index.ts')
      return ok(openApiDocument({ profile: call.context.profile.name }))
    },
  },
]

export const CONTROL_ROUTES = compileRoutes(ROUTES)
