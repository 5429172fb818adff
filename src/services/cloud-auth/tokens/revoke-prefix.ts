/**
 * `sys/leases/revoke-prefix/<prefix>` and `sys/leases/revoke-force/<prefix>` (each also without `leases/`;
 * docs/reference/cloud-auth.md §7.5): root only. Every token whose lease sits under the prefix goes, with
 * the tokens it created: a token's lease is its path (`auth/<mount>/login`, `auth/token/create…`) and an id,
 * so a prefix matches whole segments of the path (Vault adds the trailing `/`). Batch tokens have no lease.
 */
import type { FieldSchema } from '../fields/index.ts'
import { acceptedEmpty, noContent } from '../envelope.ts'
import type { OperationRoute } from '../routing/api-route.ts'
import { unsupportedOperation } from '../routing/http-operation.ts'
import { readTokenFields } from './named-token.ts'
import { tokenStore } from './token-store.ts'

const PREFIX_FIELDS: FieldSchema = { prefix: 'string', sync: 'bool' }
const FORCE_FIELDS: FieldSchema = { prefix: 'string' }

function revokeRoute(path: string, fields: FieldSchema, summary: string): OperationRoute {
  const answers = { '204': 'Revoked', '202': 'Revoking (sync false): the tokens are gone when the answer comes, as doppel revokes at once' }
  return {
    path,
    rest: 'prefix',
    reads: 'operation',
    token: 'root',
    describe: { post: { summary, body: fields, answers: 'sync' in fields ? answers : { '204': answers['204'] }, empty: true } },
    run({ context, operation, data, rest }) {
      if (operation !== 'update') return unsupportedOperation(false)
      // The framework reads (and so checks) the fields; the prefix is the path's. `sync` absent is its
      // default, true; JSON null reads as false; revoke-force has no such field and always waits.
      const read = readTokenFields(fields, data).fields
      const sync = !('sync' in fields) || (read.bool('sync') ?? !('sync' in data))
      // A write to a path ending in `/` was refused before: the prefix gets its `/` here, as Vault adds it.
      tokenStore(context.emulator).removeUnderPrefix(`${rest}/`)
      return sync ? noContent() : acceptedEmpty()
    },
  }
}

export const REVOKE_PREFIX_ROUTES: readonly OperationRoute[] = ['sys/leases/', 'sys/'].flatMap((base) => [
  revokeRoute(`${base}revoke-prefix/*`, PREFIX_FIELDS, 'Revoke every token whose path is under the prefix'),
  revokeRoute(`${base}revoke-force/*`, FORCE_FIELDS, 'Revoke every token whose path is under the prefix, ignoring errors'),
])
