/**
 * `identity-accesslist/:instance_id` and LIST `identity-accesslist` (reference §3.10): the instances that
 * logged in through ec2. Entries are written by login; here they are read and removed.
 */
import { MESSAGES } from '../messages.ts'
import { listResult, pathPattern, type Endpoint } from '../routing/endpoint.ts'
import { ServiceError } from '../service-error.ts'
import { formatRfc3339Nano } from '../time-format.ts'

function instanceId(params: Record<string, string>): string {
  const id = params.instance_id!
  if (id === '') throw new ServiceError(MESSAGES.missingInstanceId)
  return id
}

/** `identity-accesslist/:instance_id`: read and delete. */
export const accessListEntry: Endpoint = {
  pattern: pathPattern('identity-accesslist/{instance_id}'),
  fields: { instance_id: 'string' },
  operations: {
    read: ({ state, params }) => {
      const entry = state.accessList.get(instanceId(params))
      return (
        entry && {
          data: {
            role: entry.role,
            client_nonce: entry.client_nonce,
            creation_time: formatRfc3339Nano(entry.creation_time),
            disallow_reauthentication: entry.disallow_reauthentication,
            pending_time: entry.pending_time,
            expiration_time: formatRfc3339Nano(entry.expiration_time),
            last_updated_time: formatRfc3339Nano(entry.last_updated_time),
          },
        }
      )
    },
    delete: ({ state, params }) => {
      state.accessList.delete(instanceId(params))
      return undefined
    },
  },
}

/** LIST `identity-accesslist`: the instance ids, sorted. */
export const listAccessList: Endpoint = {
  pattern: /^identity-accesslist\/?$/,
  fields: {},
  operations: { list: ({ state }) => listResult([...state.accessList.keys()].sort()) },
}
