import { decodeOrKeep } from '../../core/decode-segment.ts'
import { created, mount, noContentAnswer, ok, refused, type BodySpec, type ControlAnswer, type ControlCall, type ControlRoute } from '../../core/routing/index.ts'
import { CLOUD_MOUNT } from './urls.ts'
import { cloudState } from './cloud-state.ts'
import { controlStatus, instanceOrThrow, signIdentityDocument, useInstance } from './cloud-control.ts'
import { CloudError } from './glossary.ts'
import { consistencySettings, setConsistency } from './iam/key-propagation.ts'
import { closeListener, startImdsListener } from './imds/imds-listener.ts'
import { listInstances, listPrincipals } from './inventory-listing.ts'
import { createInstance, createPrincipal, deletePrincipal, modifyInstanceMetadataOptions, setInstanceState, toInstance } from './inventory.ts'

const BODY: BodySpec = { kind: 'object', limit: 'small' }
/** A body of these fields only (the routes whose operation does not check its own input's keys). */
const only = (...fields: string[]): BodySpec => ({ ...BODY, fields })

const state = (call: ControlCall) => cloudState(call.context.emulator)
const body = (call: ControlCall) => call.body as Record<string, unknown>
/** A fake-cloud name from the path: percent-decoded when it decodes, else as sent. */
const name = decodeOrKeep

/** A handler whose CloudError (bad input, a missing instance) becomes the control API's refusal. */
function refusingCloudErrors(route: ControlRoute): ControlRoute {
  const run = route.run
  return {
    ...route,
    run: async (call): Promise<ControlAnswer> => {
      try {
        return await run(call)
      } catch (error) {
        if (error instanceof CloudError) return refused(controlStatus(error), error.message)
        throw error
      }
    },
  }
}

/**
 * The fake cloud's set-up routes under `/_doppel/cloud/` (journaled under the fake cloud): instances,
 * principals, identity documents, the metadata instance and IMDS listeners, key propagation. (Its AWS
 * faces, `/_doppel/cloud/sts|iam|ec2|imds` in `urls.ts`, are the fake cloud's own service, not control routes.)
 */
export const CLOUD_CONTROL_ROUTES: readonly ControlRoute[] = mount(CLOUD_MOUNT, ([
  { method: 'GET', path: 'instances', access: 'control', run: (call) => ok({ instances: listInstances(state(call)) }) },
  { method: 'POST', path: 'instances', access: 'control', body: BODY, run: (call) => created(toInstance(createInstance(state(call), call.body))) },
  {
    method: 'GET',
    path: 'instances/:id',
    access: 'control',
    run: (call) => ok(toInstance(instanceOrThrow(state(call), name(call.params.id!)))),
  },
  {
    method: 'POST',
    path: 'instances/:id/state',
    access: 'control',
    body: only('state'),
    run: (call) => ok(toInstance(setInstanceState(state(call), name(call.params.id!), body(call).state))),
  },
  {
    method: 'POST',
    path: 'instances/:id/metadata-options',
    access: 'control',
    body: BODY,
    run: (call) => ok(toInstance(modifyInstanceMetadataOptions(state(call), name(call.params.id!), call.body))),
  },
  { method: 'POST', path: 'instances/:id/imds', access: 'control', run: async (call) => ok(await startImdsListener(state(call), name(call.params.id!))) },
  {
    method: 'DELETE',
    path: 'instances/:id/imds',
    access: 'control',
    run: async (call) => {
      const id = name(call.params.id!)
      return (await closeListener(state(call), id)) ? noContentAnswer : refused(404, `Failed to close the metadata listener: instance "${id}" has none`)
    },
  },
  { method: 'GET', path: 'principals', access: 'control', run: (call) => ok({ principals: listPrincipals(state(call)) }) },
  { method: 'POST', path: 'principals', access: 'control', body: BODY, run: (call) => created(createPrincipal(state(call), call.body)) },
  {
    // An ARN holds slashes: the rest of the path names the principal.
    method: 'DELETE',
    path: 'principals/*',
    access: 'control',
    run: (call) => {
      const arnOrName = name(call.rest)
      return deletePrincipal(state(call), arnOrName) ? noContentAnswer : refused(404, `Failed to delete principal "${arnOrName}": no such principal`)
    },
  },
  { method: 'GET', path: 'consistency', access: 'control', run: (call) => ok(consistencySettings(state(call))) },
  { method: 'POST', path: 'consistency', access: 'control', body: BODY, run: (call) => ok(setConsistency(state(call), call.body)) },
  { method: 'POST', path: 'identity-document', access: 'control', body: only('instance_id', 'format'), run: (call) => ok(signIdentityDocument(state(call), body(call))) },
  { method: 'POST', path: 'use-instance', access: 'control', body: only('instance_id'), run: (call) => ok(useInstance(state(call), body(call))) },
] satisfies ControlRoute[]).map(refusingCloudErrors))
