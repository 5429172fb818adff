import type { CloudState, PrincipalRecord } from './cloud-state.ts'
import type { Instance } from './glossary.ts'
import { toInstance } from './inventory.ts'

/** A principal as the inventory listing shows it: its identity, never its keys. */
export type ListedPrincipal = Pick<PrincipalRecord, 'type' | 'name' | 'account_id' | 'path' | 'arn' | 'unique_id' | 'create_date'>

/** Every instance, in creation order, as `GET /_doppel/cloud/instances/<id>` shows each. */
export function listInstances(state: CloudState): Instance[] {
  return Array.from(state.instances.values(), toInstance)
}

/** Every IAM user and role, in creation order, without secrets (keys are shown only when created). */
export function listPrincipals(state: CloudState): ListedPrincipal[] {
  return Array.from(state.principals.values(), ({ type, name, account_id, path, arn, unique_id, create_date }) => ({
    type, name, account_id, path, arn, unique_id, create_date,
  }))
}
