import type { Emulator } from '../../core/emulator.ts'
import { control, type ControlTable } from './control-service.ts'

/** A control call's answer in process: its status and JSON body (undefined for none). */
export interface ControlResult {
  status: number
  body: unknown
}

/** An emulator that carries its control table (a `Doppel`: the table is put together on the features floor). */
export interface ControlHost extends Emulator {
  readonly controlTable: ControlTable
}

/**
 * A control API call in process (the scenario engine's emulator target): the same route, body checks and
 * messages as over HTTP, with a management token's rights, and no journal entry (it is not traffic).
 */
export async function callControl(emulator: ControlHost, method: string, path: string, body?: unknown): Promise<ControlResult> {
  const request = new Request(`http://doppel.invalid${path}`, {
    method,
    ...(body !== undefined && { body: JSON.stringify(body), headers: { 'Content-Type': 'application/json' } }),
  })
  const response = await control(request, { emulator, profile: emulator.profile, remoteAddress: '127.0.0.1' }, emulator.controlTable, {
    management: true,
  })
  const text = await response.text()
  return { status: response.status, body: text === '' ? undefined : (JSON.parse(text) as unknown) }
}
