import { controlPath } from '../../../services/control/urls.ts'
import { cloudPath } from '../../../services/fake-cloud/urls.ts'
import { TargetError, type TargetControl } from './target.ts'

/** One control API call: resolves with the JSON answer (null for none), throws TargetError for a refusal. */
export type ControlCaller = (method: string, path: string, body?: unknown) => Promise<unknown>

/**
 * A target's control powers as control API calls, the same for a `doppel serve` (over HTTP) and an
 * in-process emulator (`callControl`): both answer from one route table, so both report alike.
 * `cloud` reaches the fake cloud's routes (another server's, on an http target).
 */
export function controlClient(call: ControlCaller, cloud: ControlCaller = call): Omit<TargetControl, 'loadFixtures'> {
  return {
    now: async () => new Date(((await call('GET', controlPath('clock'))) as { now: string }).now),
    advanceClock: async (by) => {
      await call('POST', controlPath('clock'), { advance: by })
    },
    setClock: async (to) => {
      await call('POST', controlPath('clock'), { set: to })
    },
    reset: async () => {
      await call('POST', controlPath('reset'))
    },
    inspect: (topic) => call('GET', controlPath(topic)),
    addFault: async (input) => (await call('POST', controlPath('faults'), input)) as { id: string },
    removeFault: async (id) => {
      await call('DELETE', controlPath(`faults/${encodeURIComponent(id)}`))
    },
    clearFaults: async () => {
      await call('DELETE', controlPath('faults'))
    },
    identityDocument: async (instanceId, format) =>
      ((await cloud('POST', cloudPath('identity-document'), { instance_id: instanceId, format })) as { value: string }).value,
    createInstance: (input) => cloud('POST', cloudPath('instances'), input),
    getInstance: (instanceId) => cloud('GET', cloudPath(`instances/${encodeURIComponent(instanceId)}`)),
    setInstanceState: (instanceId, state) => cloud('POST', cloudPath(`instances/${encodeURIComponent(instanceId)}/state`), { state }),
    createPrincipal: (input) => cloud('POST', cloudPath('principals'), input),
    deletePrincipal: async (arnOrName) => {
      await cloud('DELETE', cloudPath(`principals/${encodeURIComponent(arnOrName)}`))
    },
  }
}

/** A refusal's words: the `errors` of a control API body, else the status and text. */
export function refusalText(status: number, text: string): string {
  try {
    const errors = (JSON.parse(text) as { errors?: unknown[] }).errors
    if (Array.isArray(errors) && errors.length > 0) return errors.map((e) => (typeof e === 'string' ? e : JSON.stringify(e))).join('; ')
  } catch {
    // not JSON: the status line and text say it
  }
  return `HTTP ${status}${text.trim() ? `: ${text.trim().slice(0, 300)}` : ''}`
}

/** Throws the TargetError a refused call reads as. */
export function refuse(status: number, text: string): never {
  throw new TargetError(refusalText(status, text))
}
