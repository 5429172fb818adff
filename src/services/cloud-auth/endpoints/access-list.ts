/**
 * `identity-accesslist/:instance_id` and LIST `identity-accesslist` (docs/reference/cloud-auth.md §3.10): the instances that
 * logged in through ec2. Entries are written by login; here they are read and removed.
 */
import { MESSAGES } from '../auth-messages.ts'
import type { AccessListEntry } from '../glossary.ts'
import { keyedEntries } from '../routing/keyed-entries.ts'
import { AuthRefusal } from '../auth-refusal.ts'
import { formatRfc3339Nano } from '../time-format.ts'

function instanceId(params: Record<string, string>): string {
  const id = params.instance_id!
  if (id === '') throw new AuthRefusal(MESSAGES.missingInstanceId)
  return id
}

/** `identity-accesslist/:instance_id` (read, delete) and LIST `identity-accesslist`: the instance ids, sorted. */
export const { entry: accessListEntry, list: listAccessList } = keyedEntries<AccessListEntry>({
  path: 'identity-accesslist/:instance_id',
  listPath: 'identity-accesslist/',
  fields: { instance_id: 'string' },
  collection: (state) => state.accessList,
  key: instanceId,
  readData: (entry) => ({
    role: entry.role,
    client_nonce: entry.client_nonce,
    creation_time: formatRfc3339Nano(entry.creation_time),
    disallow_reauthentication: entry.disallow_reauthentication,
    pending_time: entry.pending_time,
    expiration_time: formatRfc3339Nano(entry.expiration_time),
    last_updated_time: formatRfc3339Nano(entry.last_updated_time),
  }),
})
