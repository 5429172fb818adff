import { cloudErrors } from './cloud-errors.ts'
import type { CloudState, InstanceRecord } from './cloud-state.ts'
import type { CloudError, IdentityFormat } from './glossary.ts'
import { IDENTITY_FORMATS, identityDocument } from './identity/issue-document.ts'

/**
 * The fake cloud's set-up operations that take a control API body (`/_doppel/cloud/…`; the route table is
 * `control-routes.ts`). They throw CloudError for bad input or a missing instance.
 */

export function instanceOrThrow(state: CloudState, instanceId: string): InstanceRecord {
  const record = state.instances.get(instanceId)
  if (record === undefined) throw cloudErrors.instanceNotFound([instanceId])
  return record
}

/** An instance's identity document, signed in `format` (checked: the control API and `doppel.cloud` alike). */
export function signDocument(state: CloudState, instanceId: string, format: unknown): string {
  if (!IDENTITY_FORMATS.includes(format as IdentityFormat)) {
    throw cloudErrors.badInput(`Failed to sign the identity document: "format" must be one of ${IDENTITY_FORMATS.join(', ')}`)
  }
  return identityDocument(state, instanceOrThrow(state, instanceId), format as IdentityFormat)
}

/** Chooses the instance 169.254.169.254 answers for; answers its id. */
export function selectInstance(state: CloudState, instanceId: string): string {
  state.selectedInstance = instanceOrThrow(state, instanceId).instance_id
  return state.selectedInstance
}

/** `POST /_doppel/cloud/identity-document` `{"instance_id","format"}`: the signed document. */
export function signIdentityDocument(state: CloudState, body: Record<string, unknown>): { value: string } {
  if (typeof body.instance_id !== 'string') throw cloudErrors.badInput('Failed to sign the identity document: "instance_id" must be a string')
  return { value: signDocument(state, body.instance_id, body.format ?? 'rsa2048') }
}

/** `POST /_doppel/cloud/use-instance` `{"instance_id"}`: the instance 169.254.169.254 answers for. */
export function useInstance(state: CloudState, body: Record<string, unknown>): { instance_id: string } {
  if (typeof body.instance_id !== 'string') throw cloudErrors.badInput('Failed to choose the metadata instance: "instance_id" must be a string')
  return { instance_id: selectInstance(state, body.instance_id) }
}

/** Missing things are 404 on the control API; other provider errors keep their status (400, 409). */
export function controlStatus(error: CloudError): number {
  return error.code.endsWith('.NotFound') || error.code === 'NoSuchEntity' ? 404 : error.status
}
