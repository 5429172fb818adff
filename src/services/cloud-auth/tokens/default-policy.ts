/**
 * What a token may do, as Vault's ACL says (docs/reference/cloud-auth.md §7.4): a token with the `root`
 * policy anything, one with the `default` policy what that policy grants, any other nothing, for doppel
 * holds no other policy. The default policy's rules are Vault 1.21.4's (`vault/policy_store.go`).
 */
import type { NamedToken } from './named-token.ts'

/** A capability a policy grants on a path; `root` stands for all of them, `deny` for none. */
export type AclCapability = 'create' | 'read' | 'update' | 'delete' | 'list' | 'root' | 'deny'

/** The default policy: path (`*` at the end: a prefix; `+`: any one segment), capabilities. */
const DEFAULT_POLICY: readonly (readonly [string, readonly AclCapability[]])[] = [
  ['auth/token/lookup-self', ['read']],
  ['auth/token/renew-self', ['update']],
  ['auth/token/revoke-self', ['update']],
  ['sys/capabilities-self', ['update']],
  // Templates: dropped for a token without an entity; doppel keeps no entity names, so the second always is.
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

/** A rule with a `*` or a `+`, with what Vault ranks such rules by when several match. */
interface WildcardRule {
  /** The path without its trailing `*`. */
  path: string
  segments: string[]
  isPrefix: boolean
  firstWildcard: number
  wildcards: number
  capabilities: readonly AclCapability[]
}

/** The default policy's rules for one token: its templates filled in, or dropped. */
interface Rules {
  exact: Map<string, readonly AclCapability[]>
  wildcard: WildcardRule[]
}

const STATIC_RULES = compileRules('')

function compileRules(entityId: string): Rules {
  const exact = new Map<string, readonly AclCapability[]>()
  const wildcard: WildcardRule[] = []
  for (const [template, capabilities] of DEFAULT_POLICY) {
    const path = entityId === '' ? template : template.replace(ENTITY_ID, entityId)
    if (TEMPLATE.test(path)) continue
    const isPrefix = path.endsWith('*')
    if (!isPrefix && !path.includes('+')) {
      exact.set(path, capabilities)
      continue
    }
    const bare = isPrefix ? path.slice(0, -1) : path
    const plus = bare.indexOf('+')
    wildcard.push({
      path: bare,
      segments: bare.split('/'),
      isPrefix,
      firstWildcard: plus === -1 ? bare.length : plus,
      wildcards: bare.split('/').filter((segment) => segment === '+').length,
      capabilities,
    })
  }
  return { exact, wildcard }
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
  const granted = capabilitiesOn(entity_id === '' ? STATIC_RULES : compileRules(entity_id), path.replace(/^\/+/, ''))
  return granted === undefined ? ['deny'] : [...granted].sort()
}

/** Whether the token may do `capability` on `path`. */
export function tokenMay(named: NamedToken, path: string, capability: AclCapability): boolean {
  const granted = tokenCapabilities(named, path)
  return granted.includes('root') || granted.includes(capability)
}

/** The capability an HTTP method needs (PUT and POST write: the token store has no create of its own). */
export function methodCapability(method: string): AclCapability {
  return METHOD_CAPABILITIES[method] ?? 'update'
}

const METHOD_CAPABILITIES: Partial<Record<string, AclCapability>> = { GET: 'read', DELETE: 'delete', LIST: 'list' }

// Vault's order: an exact rule (a list also without one trailing slash), then a wildcard rule for the
// path without its trailing slash, then for the path as it is.
function capabilitiesOn(rules: Rules, path: string): readonly AclCapability[] | undefined {
  const trimmed = path.endsWith('/') ? path.slice(0, -1) : path
  return rules.exact.get(path) ?? rules.exact.get(trimmed) ?? (trimmed !== path ? wildcardMatch(rules, trimmed) : undefined) ?? wildcardMatch(rules, path)
}

/** The best wildcard rule for a path, ranked as Vault ranks them (`CheckAllowedFromNonExactPaths`). */
function wildcardMatch(rules: Rules, path: string): readonly AclCapability[] | undefined {
  const parts = path.split('/')
  let best: WildcardRule | undefined
  for (const rule of rules.wildcard) {
    if (!matches(rule, path, parts)) continue
    if (best === undefined || ranksAbove(rule, best)) best = rule
  }
  return best?.capabilities
}

function matches(rule: WildcardRule, path: string, parts: string[]): boolean {
  if (rule.wildcards === 0) return path.startsWith(rule.path)
  if (parts.length < rule.segments.length || (!rule.isPrefix && parts.length !== rule.segments.length)) return false
  const last = rule.segments.length - 1
  return rule.segments.every((segment, i) => segment === '+' || segment === parts[i] || (rule.isPrefix && i === last && parts[i]!.startsWith(segment)))
}

/** A later wildcard, a prefix over a segment rule, fewer wildcards, a longer path, then the greater text. */
function ranksAbove(a: WildcardRule, b: WildcardRule): boolean {
  if (a.firstWildcard !== b.firstWildcard) return a.firstWildcard > b.firstWildcard
  if (a.isPrefix !== b.isPrefix) return !a.isPrefix
  if (a.wildcards !== b.wildcards) return a.wildcards < b.wildcards
  if (a.path.length !== b.path.length) return a.path.length > b.path.length
  return a.path > b.path
}
