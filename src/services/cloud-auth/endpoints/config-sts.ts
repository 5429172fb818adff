/** `config/sts/:account_id` and LIST `config/sts` (docs/reference/cloud-auth.md §3.5): roles to assume for other accounts. */
import type { StsEntry } from '../glossary.ts'
import { MESSAGES } from '../auth-messages.ts'
import type { OperationInput } from '../routing/endpoint.ts'
import { keyedEntries } from '../routing/keyed-entries.ts'
import { AuthRefusal } from '../auth-refusal.ts'

function write({ state, fields, params, operation }: OperationInput): undefined {
  const accountId = params.account_id!
  const stored = state.stsRoles.get(accountId)
  const entry: StsEntry = stored ? { ...stored } : { account_id: accountId, sts_role: '', external_id: '' }
  const role = fields.string('sts_role')
  if (role !== undefined) entry.sts_role = role
  else if (operation === 'create') throw new AuthRefusal(MESSAGES.missingStsRole)
  if (entry.sts_role === '') throw new AuthRefusal(MESSAGES.emptyStsRole)
  const externalId = fields.string('external_id')
  if (externalId !== undefined) entry.external_id = externalId
  state.stsRoles.set(entry)
  return undefined
}

/** `config/sts/:account_id` (read, create/update, delete) and LIST `config/sts`: the account ids, sorted. */
export const { entry: configSts, list: listSts } = keyedEntries<StsEntry>({
  path: 'config/sts/:account_id',
  listPath: 'config/sts/',
  fields: { account_id: 'string', sts_role: 'string', external_id: 'string' },
  collection: (state) => state.stsRoles,
  key: (params) => params.account_id!,
  // An empty external_id is left out (Vault's path_config_sts.go, pathConfigStsRead; seen on a real server).
  readData: (entry) => ({ sts_role: entry.sts_role, ...(entry.external_id !== '' && { external_id: entry.external_id }) }),
  writes: { create: write, update: write },
  checksExistence: true,
})
