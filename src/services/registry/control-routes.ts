import { created, mount, refused, type BodySpec, type ControlAnswer, type ControlCall, type ControlRoute } from '../../core/routing/index.ts'
import { SETUP_PREFIX } from './urls.ts'
import type { RegistryFixture, SeedResult } from './glossary.ts'

const REGISTRY_SETUP: BodySpec = { kind: 'object', limit: 'control', required: true }

// The registry is imported on first use: the server's guard reads the control table at start-up, and the
// registry loads lazily (see `features/doppel/doppel.ts`).
async function loadRegistry(call: ControlCall, fixture: RegistryFixture, shown: (result: SeedResult) => unknown): Promise<ControlAnswer> {
  const { loadRegistryFixture, RegistryFixtureError } = await import('./index.ts')
  try {
    return created(shown(loadRegistryFixture(call.context.emulator, fixture)))
  } catch (error) {
    if (error instanceof RegistryFixtureError) return refused(400, error.message)
    throw error
  }
}

/** The registry's set-up routes under `/_doppel/registry/` (journaled under the registry). */
export const REGISTRY_CONTROL_ROUTES: readonly ControlRoute[] = mount(SETUP_PREFIX, [
  {
    method: 'POST',
    path: 'tokens',
    access: 'control',
    body: REGISTRY_SETUP,
    run: (call) => loadRegistry(call, { tokens: [call.body as NonNullable<RegistryFixture['tokens']>[number]] }, (result) => result.tokens[0]),
  },
  {
    method: 'POST',
    path: 'fixtures',
    access: 'control',
    body: REGISTRY_SETUP,
    run: (call) => loadRegistry(call, call.body as RegistryFixture, (result) => result),
  },
])
