import type { Emulator } from '../../core/emulator.ts'
import { cloudErrors } from './cloud-errors.ts'
import { cloudState, insert } from './cloud-state.ts'
import type { CloudFixture, SeededCloud } from './glossary.ts'
import { createInstance, createPrincipal, toInstance } from './inventory.ts'

const FIXTURE_KEYS = new Set(['accounts', 'instances', 'principals', 'use_instance'])

/**
 * Loads the `cloud` part of a fixture: accounts, instances, principals, and the instance the metadata
 * address answers for. All or nothing: on the first bad entry everything it added is removed again and
 * the error (a CloudError naming the entry) is thrown.
 *
 * @example
 * seedCloud(doppel, { instances: [{ instance_id: 'i-0123456789abcdef0', iam_role_name: 'web' }], principals: [{ type: 'user', name: 'alice' }] })
 */
export function seedCloud(emulator: Emulator, fixture: CloudFixture): SeededCloud {
  const state = cloudState(emulator)
  if (typeof fixture !== 'object' || fixture === null || Array.isArray(fixture)) throw cloudErrors.badInput('Failed to load the cloud fixture: it must be an object')
  for (const key of Object.keys(fixture)) if (!FIXTURE_KEYS.has(key)) throw cloudErrors.badInput(`Failed to load the cloud fixture: unknown field "${key}"`)
  const undo: (() => void)[] = []
  const { selectedInstance, lastInstance } = state
  state.recording = undo
  try {
    for (const [i, entry] of list(fixture.accounts, 'accounts').entries()) {
      const account = typeof entry === 'string' ? entry : (entry as { account_id?: unknown } | null)?.account_id
      if (typeof account !== 'string' || !/^\d{12}$/.test(account)) {
        throw cloudErrors.badInput(`Failed to load the cloud fixture: accounts[${i}] must be a 12-digit account id or {account_id}`)
      }
      if (!state.accounts.has(account)) insert(state, state.accounts, { account_id: account }, account)
    }
    const seeded: SeededCloud = {
      instances: list(fixture.instances, 'instances').map((input, i) => at(`instances[${i}]`, () => toInstance(createInstance(state, input)))),
      principals: list(fixture.principals, 'principals').map((input, i) => at(`principals[${i}]`, () => createPrincipal(state, input))),
    }
    if (fixture.use_instance !== undefined) {
      if (typeof fixture.use_instance !== 'string' || !state.instances.has(fixture.use_instance)) {
        throw cloudErrors.badInput(`Failed to load the cloud fixture: use_instance "${String(fixture.use_instance)}" is not an instance`)
      }
      state.selectedInstance = fixture.use_instance
    }
    return seeded
  } catch (error) {
    for (const step of undo.reverse()) step()
    Object.assign(state, { selectedInstance, lastInstance })
    throw error
  } finally {
    state.recording = undefined
  }
}

function list<T>(value: T[] | undefined, name: string): T[] {
  if (value === undefined) return []
  if (!Array.isArray(value)) throw cloudErrors.badInput(`Failed to load the cloud fixture: "${name}" must be a list`)
  return value
}

function at<T>(where: string, run: () => T): T {
  try {
    return run()
  } catch (error) {
    if (error instanceof Error && 'code' in error) error.message = `${where}: ${error.message}`
    throw error
  }
}
