/**
 * `roletag-denylist/:role_tag` and LIST `roletag-denylist` (docs/reference/cloud-auth.md §3.9): role tags refused at login.
 * The tag may be given as-is or base64-encoded, on every method, as the spec states (the real service
 * decodes only on POST). A plain tag always holds `:`, which base64 never does, so the two never clash.
 */
import { decodeStdBase64 } from '../../../core/go/go-base64.ts'
import type { DenyListEntry } from '../glossary.ts'
import { mountTable } from '../mounts/mount-table.ts'
import { MESSAGES } from '../auth-messages.ts'
import { RoleTagError, verifyRoleTag } from '../role-tags/index.ts'
import type { OperationInput } from '../routing/endpoint.ts'
import { keyedEntries } from '../routing/keyed-entries.ts'
import { AuthRefusal, BAD_INPUT_500 } from '../auth-refusal.ts'
import { formatRfc3339Nano } from '../time-format.ts'

function tagFrom(params: Record<string, string>): string {
  const given = params.role_tag!
  if (given === '') throw new AuthRefusal(MESSAGES.missingRoleTag)
  return decodeStdBase64(given)?.toString('utf8') ?? given
}

function deny({ context, state, params }: OperationInput): undefined {
  const tag = tagFrom(params)
  let verified: ReturnType<typeof verifyRoleTag>
  try {
    verified = verifyRoleTag(state, tag)
  } catch (error) {
    // @note The real service answers these with a 500; the service profile 400 (see deviations.ts).
    if (error instanceof RoleTagError) throw new AuthRefusal(error.message, BAD_INPUT_500)
    throw error
  }
  const role = state.roles.get(verified.tag.role.toLowerCase())
  if (!role) throw new AuthRefusal(MESSAGES.roleEntryNotFound)
  const now = context.emulator.clock.nowMs()
  const stored = state.denyList.get(tag)
  // Denying is restrictive, so the entry lives as long as the longest of the tag's, role's and mount's maxima.
  const longest = Math.max(verified.tag.max_ttl, role.token_max_ttl, mountTable(context.emulator).leaseTtls(state.mount).maxTtl)
  const entry: DenyListEntry = { tag, creation_time: stored?.creation_time ?? now, expiration_time: now + longest * 1000 }
  state.denyList.set(entry)
  return undefined
}

/** The LIST order is that of the real service's storage keys: the tags' base64 forms. */
function byStorageKey(a: string, b: string): number {
  const [x, y] = [Buffer.from(a).toString('base64'), Buffer.from(b).toString('base64')]
  return x < y ? -1 : x > y ? 1 : 0
}

/** `roletag-denylist/:role_tag` (deny with POST/PUT, read, delete) and LIST `roletag-denylist`. */
export const { entry: denyListEntry, list: listDenyList } = keyedEntries<DenyListEntry>({
  path: 'roletag-denylist/*',
  rest: 'role_tag',
  listPath: 'roletag-denylist/',
  fields: { role_tag: 'string' },
  collection: (state) => state.denyList,
  key: tagFrom,
  readData: (entry) => ({
    creation_time: formatRfc3339Nano(entry.creation_time),
    expiration_time: formatRfc3339Nano(entry.expiration_time),
  }),
  writes: { update: deny },
  listOrder: byStorageKey,
})
