/**
 * `sys/auth`: enabling, disabling, listing and tuning mounts of the auth method, so conformance runs can
 * work on a fresh mount. Only the method's own type (`aws`) can be enabled.
 */
import type { RequestContext } from '../../../core/glossary.ts'
import { authError, authResponse, multiError, noContent, sortedKeys } from '../envelope.ts'
import { explainResponse } from '../../../core/explanation.ts'
import { Fields, goDurationSeconds, toStringField, type FieldSchema } from '../fields/index.ts'
import { DoppelError } from '../../../core/doppel-error.ts'
import { MESSAGES } from '../auth-messages.ts'
import type { OperationCall, OperationRoute } from '../routing/api-route.ts'
import { unsupportedOperation } from '../routing/http-operation.ts'
import { LISTING_VISIBILITIES, mountTable, TOKEN_MOUNT, TOKEN_TYPES, TUNED_LISTS, type MountEntry, type MountTokenType } from './mount-table.ts'
import { VAULT_VERSION } from '../dev-server-status.ts'
import { uuidLayout } from '../../../core/random.ts'
import { checkEnableSettings, readEnableSettings } from './enable-settings.ts'
import { ownEntry } from '../../../core/own-field.ts'

function mountData(type: string, entry: TunedEntry): Record<string, unknown> {
  return {
    accessor: entry.accessor,
    config: sortedKeys({
      default_lease_ttl: entry.default_lease_ttl ?? 0,
      force_no_cache: false,
      max_lease_ttl: entry.max_lease_ttl ?? 0,
      token_type: entry.token_type ?? 'default-service',
      ...shownTuning(entry),
    }),
    description: entry.description,
    external_entropy_access: entry.external_entropy_access ?? false,
    local: entry.local ?? false,
    // An enable's options (an empty map unless given); the token mount, made at init, has none.
    options: entry.options !== undefined ? entry.options : type === 'token' ? null : {},
    plugin_version: '',
    // A builtin plugin reports the server's version (the release the vault profile names).
    running_plugin_version: `v${VAULT_VERSION}+builtin${type === 'token' ? '.vault' : ''}`,
    running_sha256: '',
    seal_wrap: entry.seal_wrap ?? false,
    type,
    uuid: entry.uuid,
  }
}

/** What a mount's entry and tuning show of it. */
type TunedEntry = Omit<MountEntry, 'path'>

/** The tuned settings a mount's entry and tuning show only when set: the listing and the non-empty lists. */
function shownTuning(entry: TunedEntry): Record<string, unknown> {
  const shown: Record<string, unknown> = {}
  if (entry.listing_visibility) shown.listing_visibility = entry.listing_visibility
  for (const name of TUNED_LISTS) if ((entry[name]?.length ?? 0) > 0) shown[name] = entry[name]
  return shown
}

/** The token mount, made at init: its accessor and id fixed for the instance, as a server's are for its life. */
function tokenMount(context: RequestContext): TunedEntry {
  const hex = context.emulator.random.fixed('token mount').toString('hex')
  const made = { accessor: `auth_token_${hex.slice(0, 8)}`, uuid: uuidLayout(hex.slice(8, 40)), description: 'token based credentials' }
  return { ...made, ...mountTable(context.emulator).tokenTuning }
}

/** The entry of the mount at exactly `path`: the token mount's, or one of the auth method's. */
function entryAt(context: RequestContext, path: string): TunedEntry | undefined {
  return path === TOKEN_MOUNT ? tokenMount(context) : mountTable(context.emulator).get(path)
}

function listMounts(context: RequestContext): Response {
  const mounts: Record<string, unknown> = { [`${TOKEN_MOUNT}/`]: mountData('token', tokenMount(context)) }
  for (const entry of mountTable(context.emulator).entries()) mounts[`${entry.path}/`] = mountData('aws', entry)
  return authResponse(context, { data: mounts, topLevel: mounts, mountType: 'system' })
}

/** A mount's own entry (`GET sys/auth/:path`), in the list's shape; the real service's 400 for a path with none. */
function readMount(context: RequestContext, path: string): Response {
  const entry = entryAt(context, path)
  if (entry === undefined) {
    return explainResponse(authError(400, MESSAGES.noAuthEngine(`${path}/`)), { rule: 'mount path', seen: path, hint: 'list the mounts with GET sys/auth' })
  }
  const data = mountData(path === TOKEN_MOUNT ? 'token' : 'aws', entry)
  return authResponse(context, { data, topLevel: data, mountType: 'system' })
}

/**
 * `GET sys/auth/<path>/tune`: the tuning of the mount holding the path, its TTLs the system's where it has
 * none of its own. A path no mount holds: its 400.
 */
function readTune(context: RequestContext, path: string): Response {
  // The mount holding the path, by its longest prefix (Vault's MatchingSystemView): `aws/x` is `aws`'s.
  const table = mountTable(context.emulator)
  const held = table.holding(path)
  if (held === undefined) {
    return explainResponse(authError(400, MESSAGES.noSysView(`auth/${path}/`)), { rule: 'mount path', seen: path, hint: 'list the mounts with GET sys/auth' })
  }
  const mount = entryAt(context, held)!
  const leases = table.leaseTtls(held)
  const data = sortedKeys({
    default_lease_ttl: leases.defaultTtl,
    description: mount.description,
    force_no_cache: false,
    max_lease_ttl: leases.maxTtl,
    token_type: mount.token_type ?? 'default-service',
    ...(mount.options && Object.keys(mount.options).length > 0 && { options: mount.options }),
    ...shownTuning(mount),
  })
  return authResponse(context, { data, topLevel: data, mountType: 'system' })
}

/** The tuning doppel emulates: the lease TTLs, which logins and renewals take, the description and the logins' token type. */
const TUNE_FIELDS: FieldSchema = {
  default_lease_ttl: 'string',
  max_lease_ttl: 'string',
  description: 'string',
  audit_non_hmac_request_keys: 'commaList',
  audit_non_hmac_response_keys: 'commaList',
  listing_visibility: 'string',
  token_type: 'string',
  passthrough_request_headers: 'commaList',
  allowed_response_headers: 'commaList',
}

/** A JSON object (no list), or null: what a map decodes from. */
const isMapOrNull = (value: unknown) => value === null || (typeof value === 'object' && !Array.isArray(value))

/** A JSON null, an empty text, list or object: what an empty map, list or text decodes from. */
const isEmpty = (value: unknown) =>
  value === null || value === '' || (Array.isArray(value) && value.length === 0) || (typeof value === 'object' && Object.keys(value as object).length === 0)

/** Go's `strconv.ParseBool` forms of false, and what decodes to false. */
const isFalse = (value: unknown) => value === null || value === false || ['0', 'f', 'F', 'false', 'FALSE', 'False'].includes(String(value))

/**
 * Vault's other tuning fields, each with the values that change nothing on an aws mount (what clients send
 * unasked: the Go client's `TuneMount`, and so Vault's CLI, sends `"options": null`), as `handleTuneWriteCommon`
 * takes them; any other value is refused with why, as the path was before doppel emulated any tuning. No
 * `plugin_version` changes nothing: Vault refuses an empty one as no semantic version.
 */
const TUNE_NOT_EMULATED: Readonly<Record<string, (value: unknown) => boolean>> = {
  allowed_managed_keys: isEmpty,
  delegated_auth_accessors: isEmpty,
  identity_token_key: (value) => value === null || value === '',
  options: (value) => isMapOrNull(value) && isEmpty(value),
  plugin_version: () => false,
  trim_request_trailing_slashes: isFalse,
  // An object is Vault's refusal of user lockout on this mount's type (writeTune)
  user_lockout_config: isMapOrNull,
}

/**
 * `POST sys/auth/<path>/tune` as Vault's `handleTuneWriteCommon` does it for the fields doppel emulates: the
 * mount holding the path by its longest prefix (the token mount's too), then the lease TTLs (`""`
 * keeps one, `system` clears it, else a duration; a max below the default is refused), the description, the
 * audit lists, the listing, the token type (not the token mount's), the header lists. Nothing is changed
 * unless every field is taken.
 */
function writeTune(context: RequestContext, path: string, data: Record<string, unknown>): Response {
  const unemulated = Object.keys(TUNE_NOT_EMULATED).filter((name) => Object.hasOwn(data, name) && !TUNE_NOT_EMULATED[name]!(data[name]))
  if (unemulated.length > 0) {
    const why = { rule: 'route', seen: `tuning of ${unemulated.join(', ')}`, hint: `doppel emulates tuning ${Object.keys(TUNE_FIELDS).join(', ')}` }
    return explainResponse(authError(404, multiError(MESSAGES.unsupportedPath)), why)
  }
  const fields = new Fields(TUNE_FIELDS, data)
  const table = mountTable(context.emulator)
  const mount = table.holding(path)
  if (mount === undefined) {
    return explainResponse(authError(400, MESSAGES.tuneNoMount(`auth/${path}/`)), { rule: 'mount path', seen: path, hint: 'list the mounts with GET sys/auth' })
  }
  const entry = entryAt(context, mount)!
  const lease = (name: string, current: number): number => {
    const text = fields.string(name) ?? ''
    if (text === '') return current
    if (text === 'system') return 0
    return goDurationSeconds(text)
  }
  let defaultTtl: number
  let maxTtl: number
  try {
    defaultTtl = lease('default_lease_ttl', entry.default_lease_ttl ?? 0)
    maxTtl = lease('max_lease_ttl', entry.max_lease_ttl ?? 0)
  } catch (error) {
    if (!(error instanceof DoppelError)) throw error
    return explainResponse(authError(400, error.message), { rule: 'lease TTL', seen: error.message, expected: 'a duration (3600, 1h, 30d) or system' })
  }
  if (defaultTtl !== 0 && maxTtl !== 0 && maxTtl < defaultTtl) {
    return explainResponse(authError(400, MESSAGES.tuneMaxBelowDefault(maxTtl, defaultTtl)), { rule: 'lease TTL', seen: `max ${maxTtl}s, default ${defaultTtl}s` })
  }
  const lockout = data.user_lockout_config
  if (typeof lockout === 'object' && lockout !== null && Object.keys(lockout).length > 0) {
    const type = mount === TOKEN_MOUNT ? 'token' : 'aws'
    return explainResponse(authError(400, MESSAGES.userLockoutNotAllowed(type)), { rule: 'user_lockout_config', seen: `a ${type} mount`, expected: 'user lockout is for ldap, approle and userpass mounts' })
  }
  const visibility = fields.string('listing_visibility')
  if (visibility !== undefined && !LISTING_VISIBILITIES.has(visibility)) {
    return explainResponse(authError(400, MESSAGES.listingVisibilityInvalid(visibility)), { rule: 'listing_visibility', seen: visibility, expected: 'unauth, hidden or empty' })
  }
  let tokenType: MountTokenType | undefined
  if (fields.has('token_type')) {
    if (mount === TOKEN_MOUNT) return explainResponse(authError(400, MESSAGES.tokenTypeOnTokenMount), { rule: 'token_type', seen: 'the token mount' })
    tokenType = ownEntry(TOKEN_TYPES, fields.string('token_type')!)
    if (tokenType === undefined) {
      return explainResponse(authError(400, MESSAGES.tokenTypeInvalid), { rule: 'token_type', seen: fields.string('token_type')!, expected: 'default-service, default-batch, service or batch' })
    }
  }
  table.tune(mount, {
    default_lease_ttl: defaultTtl,
    max_lease_ttl: maxTtl,
    ...(fields.has('description') && { description: fields.string('description')! }),
    ...(tokenType && { token_type: tokenType }),
    ...(visibility !== undefined && { listing_visibility: visibility === '' ? undefined : (visibility as 'unauth' | 'hidden') }),
    ...Object.fromEntries(TUNED_LISTS.filter((name) => fields.has(name)).map((name) => [name, fields.list(name)!])),
  })
  return noContent()
}

/** The type to enable: `type`, or for `plugin` its `plugin_name`; the real service's refusal where it has one. */
function mountType(type: string, pluginName: string): string | Response {
  if (type === '') return explainResponse(authError(400, MESSAGES.backendTypeMissing), { rule: 'mount type', seen: 'no type', expected: 'type aws' })
  if (type !== 'plugin') return type
  if (pluginName === '') return explainResponse(authError(400, MESSAGES.pluginNameMissing), { rule: 'mount type', seen: 'type plugin without plugin_name', expected: 'type aws' })
  return pluginName
}

function enable(context: RequestContext, path: string, data: Record<string, unknown>): Response {
  // Every field is read (and a wrong-typed one refused), then the config, before the type is judged, as the real service does.
  const given = toStringField(data.type, 'type')
  const description = toStringField(data.description, 'description')
  const pluginName = toStringField(data.plugin_name, 'plugin_name')
  const read = readEnableSettings(data)
  if (read instanceof Response) return read
  const type = mountType(given, read.config.plugin_name || pluginName)
  if (typeof type !== 'string') return type
  const refused = checkEnableSettings(type, read.settings, read.config)
  if (refused) return refused
  if (type !== 'aws') return explainResponse(authError(400, MESSAGES.pluginNotFound(type)), { rule: 'mount type', seen: type, expected: 'aws (the one auth method doppel emulates)' })
  const table = mountTable(context.emulator)
  const conflict = table.conflict(path)
  if (conflict !== undefined) {
    return explainResponse(authError(400, MESSAGES.pathInUse(`${conflict}/`)), { rule: 'mount path', seen: path, hint: `${conflict}/ is mounted already; pick a path that neither holds nor sits under it` })
  }
  table.enable(path, description, read.settings)
  return noContent()
}

/** `sys/auth`: a read lists the mounts; another operation is 405 (a LIST is routed as `sys/auth/`). */
const runMountList = ({ context, operation }: OperationCall) => (operation === 'read' ? listMounts(context) : unsupportedOperation(false))

/**
 * `sys/auth/<rest>`, matched as Vault's system backend matches it (`auth/(?P<path>.+?)/tune$`, then
 * `auth/(?P<path>.+)`): `<path>/tune` reads a mount's tuning; any other rest of one character or more is a
 * mount's path, a trailing slash included (`aws/` is the mount `aws`, `aws/tune/` a path with no mount).
 */
function runMount(call: OperationCall): Response {
  const { context, operation, rest, data } = call
  if (rest === '') return explainResponse(authError(404, multiError(MESSAGES.unsupportedPath)), { rule: 'route', seen: 'sys/auth/', hint: 'list the mounts with GET sys/auth' })
  const tuned = runTune(call)
  if (tuned) return tuned
  const path = rest.endsWith('/') ? rest.slice(0, -1) : rest
  if (operation === 'read') return readMount(context, path)
  if (operation === 'update') return enable(context, path, data)
  if (operation === 'delete') {
    mountTable(context.emulator).disable(path)
    return noContent()
  }
  return unsupportedOperation(false)
}

/**
 * A mount's tuning when the rest of the path is `<mount path>/tune` (Vault's `(?P<path>.+?)/tune$`): read or
 * written, any other operation 405. Undefined for any other rest. `sys/mounts/auth/<path>/tune` is Vault's
 * other way to it (`mounts/(?P<path>.+?)/tune$`, the path with `auth/` before it), which its CLI's `auth
 * tune` and its Go client's `TuneMount` take; the routes send its rest here too.
 */
export function runTune({ context, operation, rest, data }: OperationCall): Response | undefined {
  const path = /^(.+?)\/tune$/.exec(rest)?.[1]
  if (path === undefined) return undefined
  if (operation === 'read') return readTune(context, path)
  if (operation === 'update') return writeTune(context, path, data)
  return unsupportedOperation(false)
}

/** `sys/auth` and the mounts under it, relative to `/v1/`. */
export const SYS_AUTH_ROUTES: readonly OperationRoute[] = [
  {
    path: 'sys/auth',
    reads: 'operation',
    token: 'root',
    describe: { get: { summary: 'List the enabled auth mounts', answers: { '200': 'Mounts by path' } } },
    run: runMountList,
  },
  {
    path: 'sys/auth/*',
    rest: 'path',
    reads: 'operation',
    token: 'root',
    describe: {
      get: { summary: "A mount's entry", answers: { '200': 'The mount, as the list shows it' } },
      post: { summary: 'Enable the auth method (type aws) at a path', body: { type: 'string', description: 'string', plugin_name: 'string' }, answers: { '204': 'Enabled' } },
      delete: { summary: 'Disable a mount', answers: { '204': 'Disabled' } },
    },
    run: runMount,
  },
]
