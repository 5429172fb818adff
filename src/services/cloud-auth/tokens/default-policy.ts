/**
 * What a token may do, as Vault's ACL says (docs/reference/cloud-auth.md §7.4): a token with the `root`
 * policy anything, one with the `default` policy what that policy grants, any other nothing, for doppel
 * holds no other policy. The default policy's rules are Vault 1.21.4's (`vault/policy_store.go`).
 */
import { ownEntry } from '../../../core/own-field.ts'
import type { NamedToken } from './named-token.ts'

/** A capability a policy grants on a path; `root` stands for all of them, `deny` for none. */
export type AclCapability = 'create' | 'read' | 'update' | 'delete' | 'list' | 'root' | 'deny'

/** The default policy: path (`*` at the end: a prefix; `+`: any one segment), capabilities. */
const DEFAULT_POLICY: readonly (readonly [string, readonly AclCapability[]])[] = [
  ['auth/token/lookup-self', ['read']],
  ['auth/token/renew-self', ['update']],
  ['auth/token/revoke-self', ['update']],
  ['sys/capabilities-self', ['update']],
  ['identity/entity/id/{{identity.entity.id}}', ['read']],
  ['identity/entity/name/{{identity.entity.name}}', ['read']],
  ['sys/internal/ui/resultant-acl', ['read']],
  ['sys/renew', ['update']],
  ['sys/leases/renew', ['update']],
  ['sys/leases/lookup', ['update']],
  ['cubbyhole/*', ['create', 'read', 'update', 'delete', 'list']],
  ['sys/wrapping/wrap', ['update']],
  ['sys/wrapping/lookup', ['update']],
  ['sys/wrapping/unwrap', ['update']],
  ['sys/tools/hash', ['update']],
  ['sys/tools/hash/*', ['update']],
  ['sys/control-group/request', ['update']],
  ['identity/oidc/provider/+/authorize', ['read', 'update']],
]

const ENTITY_ID = '{{identity.entity.id}}'
const TEMPLATE = /\{\{.*?\}\}/

/** A rule with a `*` (a prefix) or a `+` (any one segment). */
interface WildcardRule {
  /** The path without its trailing `*`. */
  path: string
  segments: string[]
  isPrefix: boolean
  hasSegmentWildcard: boolean
  capabilities: readonly AclCapability[]
}

const isWildcard = (path: string) => path.endsWith('*') || path.includes('+')
/** The exact rules; a template (an entity's id or name) is no path until filled in. */
const EXACT = new Map(DEFAULT_POLICY.filter(([path]) => !TEMPLATE.test(path) && !isWildcard(path)))
const WILDCARD = DEFAULT_POLICY.filter(([path]) => isWildcard(path)).map(([path, capabilities]) => wildcardRule(path, capabilities))
/** The entity id's rule, filled in with the token's own entity; doppel keeps no entity names, so the name's rule never is. */
const [ENTITY_TEMPLATE, ENTITY_CAPABILITIES] = DEFAULT_POLICY.find(([path]) => path.endsWith(ENTITY_ID))!
const ENTITY_PREFIX = ENTITY_TEMPLATE.slice(0, -ENTITY_ID.length)

function wildcardRule(path: string, capabilities: readonly AclCapability[]): WildcardRule {
  const isPrefix = path.endsWith('*')
  const bare = isPrefix ? path.slice(0, -1) : path
  const segments = bare.split('/')
  return { path: bare, segments, isPrefix, hasSegmentWildcard: segments.includes('+'), capabilities }
}

/**
 * The capabilities a token has on a path, sorted, as `sys/capabilities-self` answers them (Vault's
 * `ACL.Capabilities`, which asks as a list operation would): `["root"]` for a root token, `["deny"]` where
 * nothing is granted.
 */
export function tokenCapabilities(named: NamedToken, path: string): AclCapability[] {
  if ('root' in named) return ['root']
  const { policies, entity_id } = named.token
  if (policies.includes('root')) return ['root']
  if (!policies.includes('default')) return ['deny']
  const granted = capabilitiesOn(entity_id, path.replace(/^\/+/, ''))
  return granted === undefined ? ['deny'] : [...granted].sort()
}

/** Whether the token may do `capability` on `path`. */
export function tokenMay(named: NamedToken, path: string, capability: AclCapability): boolean {
  const granted = tokenCapabilities(named, path)
  return granted.includes('root') || granted.includes(capability)
}

/** The capability an HTTP method needs (PUT and POST write: the token store has no create of its own). */
export function methodCapability(method: string): AclCapability {
  return ownEntry(METHOD_CAPABILITIES, method) ?? 'update'
}

const METHOD_CAPABILITIES: Record<string, AclCapability> = { GET: 'read', DELETE: 'delete', LIST: 'list' }

// Vault's order: an exact rule (a list also without one trailing slash), then a wildcard rule for the
// path without its trailing slash, then for the path as it is.
function capabilitiesOn(entityId: string, path: string): readonly AclCapability[] | undefined {
  const trimmed = path.endsWith('/') ? path.slice(0, -1) : path
  return exactMatch(entityId, path) ?? exactMatch(entityId, trimmed) ?? (trimmed !== path ? wildcardMatch(trimmed) : undefined) ?? wildcardMatch(path)
}

/** The exact rule for a path: a fixed one, or the token's own entity's (a token without an entity has none). */
function exactMatch(entityId: string, path: string): readonly AclCapability[] | undefined {
  return EXACT.get(path) ?? (entityId !== '' && path === ENTITY_PREFIX + entityId ? ENTITY_CAPABILITIES : undefined)
}

/**
 * The wildcard rule for a path (Vault's `CheckAllowedFromNonExactPaths`). The default policy's wildcard rules
 * cover paths no other of them covers, so Vault's ranking of several matches never comes into play.
 */
function wildcardMatch(path: string): readonly AclCapability[] | undefined {
  const parts = path.split('/')
  return WILDCARD.find((rule) => matches(rule, path, parts))?.capabilities
}

// A `+` stands for any one segment, an empty one too; without a trailing `*` the segments must be as many.
function matches(rule: WildcardRule, path: string, parts: string[]): boolean {
  if (!rule.hasSegmentWildcard) return path.startsWith(rule.path)
  if (parts.length < rule.segments.length || (!rule.isPrefix && parts.length !== rule.segments.length)) return false
  const last = rule.segments.length - 1
  return rule.segments.every((segment, i) => segment === '+' || segment === parts[i] || (rule.isPrefix && i === last && parts[i]!.startsWith(segment)))
}
