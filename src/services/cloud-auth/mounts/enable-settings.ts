/**
 * What an enable (`POST sys/auth/<path>`) sets besides the type and description, read as Vault 1.21.4's
 * `handleEnableAuth` reads it: the `config` map (an `APIMountConfig`: lease TTLs, token type, listing, the
 * audit and header lists, the plugin version) and `options`, `local`, `seal_wrap`, `external_entropy_access`.
 */
import { explainResponse } from '../../../core/explanation.ts'
import { DoppelError } from '../../../core/doppel-error.ts'
import { MESSAGES } from '../auth-messages.ts'
import { authError } from '../envelope.ts'
import { FieldError, goDurationSeconds, toBoolField, toCommaListField } from '../fields/index.ts'
import { unconvertible } from '../fields/field-error.ts'
import { weakString } from '../fields/scalar-fields.ts'
import { MOUNT_MAX_TTL } from '../limits.ts'
import { VAULT_VERSION } from '../dev-server-status.ts'
import { LISTING_VISIBILITIES, TOKEN_TYPES, TUNED_LISTS, type MountSettings } from './mount-table.ts'
import { ownEntry } from '../../../core/own-field.ts'

/** A refusal of the `config`, before the type is judged (Vault checks it first). */
const refuse = (message: string, seen: string, expected: string) => explainResponse(authError(400, message), { rule: 'mount config', seen, expected })

/** `config`'s fields read as comma lists when given as one text (Vault's `expandStringValsWithCommas`). */
const LIST_FIELDS = ['audit_non_hmac_request_keys', 'audit_non_hmac_response_keys', 'passthrough_request_headers', 'allowed_response_headers', 'allowed_managed_keys', 'delegated_auth_accessors'] as const
const STRING_FIELDS = ['default_lease_ttl', 'max_lease_ttl', 'token_type', 'listing_visibility', 'plugin_version', 'identity_token_key', 'plugin_name'] as const
const BOOL_FIELDS = ['force_no_cache', 'trim_request_trailing_slashes'] as const

type ApiMountConfig = Partial<Record<(typeof STRING_FIELDS)[number], string> & Record<(typeof LIST_FIELDS)[number], string[]>>

/** The `config` field as the SDK's TypeMap takes it: a JSON object (a list of them merged), null or absent. */
function configMap(value: unknown): Record<string, unknown> {
  if (value === undefined || value === null) return {}
  const target = 'map[string]interface {}'
  if (!Array.isArray(value)) {
    if (typeof value === 'object') return value as Record<string, unknown>
    throw new FieldError('config', value, unconvertible('', target, value))
  }
  const merged: Record<string, unknown> = {}
  value.forEach((item, index) => {
    if (typeof item !== 'object' || item === null || Array.isArray(item)) throw new FieldError('config', value, unconvertible(`[${index}]`, target, item))
    Object.assign(merged, item)
  })
  return merged
}

/** mapstructure's strict decode of the map into `APIMountConfig`; undefined where a field does not fit. */
function decodeConfig(map: Record<string, unknown>): ApiMountConfig | undefined {
  const config: ApiMountConfig = {}
  for (const name of STRING_FIELDS) {
    const value = map[name]
    if (value === undefined || value === null) continue
    // A JSON number arrives as its text, as Go's json.Number (a string kind) decodes.
    if (typeof value !== 'string') return undefined
    config[name] = value
  }
  for (const name of BOOL_FIELDS) if (!(map[name] === undefined || map[name] === null || typeof map[name] === 'boolean')) return undefined
  for (const name of LIST_FIELDS) {
    const value = map[name]
    if (value === undefined || value === null) continue
    // A text is split as the SDK splits a comma list (parseutil.ParseCommaStringSlice): items trimmed, empty ones kept.
    if (typeof value === 'string') config[name] = toCommaListField(value, name)
    else if (Array.isArray(value) && value.every((item) => typeof item === 'string')) config[name] = value as string[]
    else return undefined
  }
  const lockout = map.user_lockout_config
  if (!(lockout === undefined || lockout === null || (typeof lockout === 'object' && !Array.isArray(lockout)))) return undefined
  return config
}

/** A lease TTL of the config: `""` and `system` are the system's (0), else a duration; or its refusal. */
function leaseTtl(kind: 'default' | 'max', text: string | undefined): number | Response {
  if (text === undefined || text === '' || text === 'system') return 0
  try {
    return goDurationSeconds(text)
  } catch (error) {
    if (!(error instanceof DoppelError)) throw error
    return refuse(MESSAGES.enableTtlUnparsable(kind, text, error.message), text, 'a duration (3600, 1h, 30d) or system')
  }
}

/** Reads the settings, or answers the first refusal in Vault's order. Throws FieldError for a field of the wrong kind. */
export function readEnableSettings(data: Record<string, unknown>): { settings: MountSettings; config: ApiMountConfig } | Response {
  const options = optionsField(data.options)
  const flags = {
    ...(toBoolField(data.local, 'local') && { local: true as const }),
    ...(toBoolField(data.seal_wrap, 'seal_wrap') && { seal_wrap: true as const }),
    ...(toBoolField(data.external_entropy_access, 'external_entropy_access') && { external_entropy_access: true as const }),
  }
  const config = decodeConfig(configMap(data.config))
  if (config === undefined) return refuse(MESSAGES.enableConfigUnconvertible, 'a config field of the wrong kind', 'strings for the TTLs, token type and listing; lists or comma texts for the lists')
  const defaultTtl = leaseTtl('default', config.default_lease_ttl)
  if (defaultTtl instanceof Response) return defaultTtl
  const maxTtl = leaseTtl('max', config.max_lease_ttl)
  if (maxTtl instanceof Response) return maxTtl
  if (maxTtl !== 0 && defaultTtl > maxTtl) return refuse(MESSAGES.enableDefaultOverMax, `default ${defaultTtl}s, max ${maxTtl}s`, 'a default no longer than the max')
  if (defaultTtl > MOUNT_MAX_TTL && maxTtl === 0) return refuse(MESSAGES.enableDefaultOverSystemMax(MOUNT_MAX_TTL), `default ${defaultTtl}s`, `at most the system max, ${MOUNT_MAX_TTL}s, or a max given beside it`)
  const tokenType = ownEntry(TOKEN_TYPES, config.token_type ?? '')
  if (tokenType === undefined) return refuse(MESSAGES.tokenTypeInvalid, config.token_type!, 'default-service, default-batch, service or batch')
  const settings: MountSettings = {
    ...(defaultTtl !== 0 && { default_lease_ttl: defaultTtl }),
    ...(maxTtl !== 0 && { max_lease_ttl: maxTtl }),
    ...(tokenType !== 'default-service' && { token_type: tokenType }),
    ...(config.listing_visibility && { listing_visibility: config.listing_visibility as 'unauth' | 'hidden' }),
    ...Object.fromEntries(TUNED_LISTS.filter((name) => (config[name]?.length ?? 0) > 0).map((name) => [name, config[name]])),
    options,
    ...flags,
  }
  return { settings, config }
}

/** `options` as the SDK's TypeKVPairs takes it: absent is an empty map, null none, an object's values as text. */
function optionsField(value: unknown): Record<string, string> | null {
  if (value === undefined) return {}
  if (value === null) return null
  if (typeof value !== 'object' || Array.isArray(value)) throw new FieldError('options', value, unconvertible('', 'map[string]string', value))
  const options: Record<string, string> = {}
  for (const [key, item] of Object.entries(value)) {
    const text = weakString(item, key)
    if (typeof text !== 'string') throw new FieldError('options', value, text.error)
    options[key] = text
  }
  return options
}

/** go-version's grammar (`NewVersion`): numbers, a pre-release, metadata. */
const GO_VERSION = /^v?([0-9]+(?:\.[0-9]+)*?)(-([0-9]+[0-9A-Za-z\-~]*(?:\.[0-9A-Za-z\-~]+)*)|(-?([A-Za-z\-~]+[0-9A-Za-z\-~]*(?:\.[0-9A-Za-z\-~]+)*)))?(?:\+([0-9A-Za-z\-~]+(?:\.[0-9A-Za-z\-~]+)*))?$/

/** The aws method's builtin version, the one `plugin_version` may name (Vault's `versions.GetBuiltinVersion`). */
const BUILTIN_VERSION = `v${VAULT_VERSION}+builtin`

/**
 * The checks after the type is settled, in Vault's order (`validateVersion`, the options' `version`, the
 * listing, the identity token key), or undefined when all pass.
 */
export function checkEnableSettings(type: string, settings: MountSettings, config: ApiMountConfig): Response | undefined {
  const version = config.plugin_version ?? ''
  if (version !== '') {
    const parsed = GO_VERSION.exec(version)
    if (parsed === null) return refuse(MESSAGES.versionNotSemantic(version, `malformed version: ${version}`), version, 'a semantic version')
    const numbers = parsed[1]!.split('.').map((segment) => String(Number(segment)))
    while (numbers.length < 3) numbers.push('0')
    const pre = parsed[3] ?? parsed[5]
    const canonical = `v${numbers.join('.')}${pre ? `-${pre}` : ''}${parsed[6] ? `+${parsed[6]}` : ''}`
    if (canonical !== BUILTIN_VERSION) return refuse(MESSAGES.pluginVersionNotFound(type, canonical), canonical, `no plugin_version, or ${BUILTIN_VERSION}: the aws method is builtin`)
  }
  if (settings.options && (settings.options.version ?? '') !== '') return refuse(MESSAGES.authVersionOption(type), `options.version ${settings.options.version}`, 'no version option: an auth method has none')
  const listing = config.listing_visibility ?? ''
  if (!LISTING_VISIBILITIES.has(listing)) return refuse(MESSAGES.listingVisibilityInvalid(listing), listing, '"", unauth or hidden')
  const key = config.identity_token_key ?? ''
  if (key !== '') return refuse(MESSAGES.identityTokenKeyMissing(key), key, 'no identity_token_key: doppel holds no identity token keys')
  return undefined
}
