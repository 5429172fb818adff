// The one place that knows how the emulator stores its records (`GET /_doppel/state`): each collection
// is turned here into the names and shapes the service's own API answers with, so no view shows an
// internal name (`cloud-auth:cloud:roles`, `moduleId`) or an epoch number. Times stay as the API gives
// them, or become RFC 3339 where the store keeps epoch milliseconds.

/** Epoch milliseconds as the services write times (Go's RFC 3339 with only the digits that count). */
const iso = (ms) => (typeof ms === 'number' ? new Date(ms).toISOString().replace(/\.000Z$/, 'Z').replace(/(\.\d*[1-9])0+Z$/, '$1Z') : ms ?? null)
const values = (collection) => Object.values(collection ?? {})

// --- the auth method (docs/reference/cloud-auth.md; the read shapes of its endpoints) ---------------------

/** `GET auth/<mount>/role/<role>`: the stored entry without its name and HMAC key, the deprecated token
 * fields only while they hold a value, as the read answers. */
function role(entry) {
  const { name, hmac_key, ttl, max_ttl, period, policies, ...rest } = entry
  const read = Object.fromEntries(Object.entries(rest).sort(([a], [b]) => a.localeCompare(b)))
  if (ttl > 0) read.ttl = ttl
  if (max_ttl > 0) read.max_ttl = max_ttl
  if (period > 0) read.period = period
  if (policies?.length > 0) read.policies = policies
  return { name, read }
}

const accessListEntry = (entry) => ({
  instance_id: entry.instance_id,
  role: entry.role,
  client_nonce: entry.client_nonce,
  creation_time: iso(entry.creation_time),
  disallow_reauthentication: entry.disallow_reauthentication,
  pending_time: entry.pending_time,
  expiration_time: iso(entry.expiration_time),
  last_updated_time: iso(entry.last_updated_time),
})

const denyListEntry = (entry) => ({ role_tag: entry.tag, creation_time: iso(entry.creation_time), expiration_time: iso(entry.expiration_time) })

/** `config/client` reads without its secret key. */
function clientConfig(config) {
  const { secret_key, ...read } = config
  return read
}

/** `auth/token/lookup-self`'s shape of an issued token (the remaining `ttl` against the emulator clock). */
function token(entry, nowMs) {
  return {
    accessor: entry.accessor,
    creation_time: iso(entry.creation_time),
    creation_ttl: entry.creation_ttl,
    display_name: entry.display_name,
    entity_id: entry.entity_id,
    expire_time: iso(entry.expire_time),
    explicit_max_ttl: entry.explicit_max_ttl,
    id: entry.id,
    meta: Object.keys(entry.metadata ?? {}).length > 0 ? entry.metadata : null,
    num_uses: entry.num_uses,
    path: entry.path,
    policies: entry.policies,
    renewable: entry.renewable,
    ttl: entry.expire_time === null ? 0 : Math.max(0, Math.trunc((entry.expire_time - nowMs) / 1000)),
    type: entry.type,
    ...(entry.period > 0 && { period: entry.period }),
  }
}

const AUTH_COLLECTION = /^cloud-auth:(.+):(roles|certificates|sts|identity-accesslist|roletag-denylist|config)$/

/** Every mount of the auth method with what it holds, in API shape, by mount path. */
export function authMounts(state, nowMs) {
  const mounts = new Map()
  const mount = (name) => {
    if (!mounts.has(name)) mounts.set(name, { path: `auth/${name}`, roles: [], certificates: [], sts: [], accessList: [], denyList: [], config: {}, tokens: [] })
    return mounts.get(name)
  }
  for (const [collection, records] of Object.entries(state)) {
    const match = AUTH_COLLECTION.exec(collection)
    if (!match) continue
    const [, name, what] = match
    const into = mount(name)
    const entries = values(records)
    if (what === 'roles') into.roles = entries.map(role)
    else if (what === 'certificates') into.certificates = entries.map(({ name, type, pem }) => ({ cert_name: name, type, aws_public_cert: pem }))
    else if (what === 'sts') into.sts = entries.map(({ account_id, sts_role, external_id }) => ({ account_id, sts_role, external_id }))
    else if (what === 'identity-accesslist') into.accessList = entries.map(accessListEntry)
    else if (what === 'roletag-denylist') into.denyList = entries.map(denyListEntry)
    else for (const { key, value } of entries) into.config[key] = key === 'config/client' ? clientConfig(value) : value
  }
  for (const entry of values(state.tokens)) {
    mount(entry.mount).tokens.push(token(entry, nowMs))
  }
  return [...mounts.values()]
}

// --- the registry (docs/reference/registry.md; JSON:API attributes in kebab-case) ------------------------

/** The registry's organizations, team tokens, modules and versions in its API's names. */
export function registry(state) {
  const modules = values(state['registry.modules'])
  const versions = values(state['registry.versions'])
  const moduleOf = new Map(modules.map((module) => [module.id, module]))
  return {
    organizations: values(state['registry.organizations']).map(({ name, createdAt }) => ({ name, 'created-at': createdAt })),
    tokens: values(state['registry.tokens']).map(({ token, organizations, createdAt }) => ({ token, organizations, 'created-at': createdAt })),
    modules: modules.map((module) => {
      const own = versions.filter((version) => version.moduleId === module.id)
      return {
        id: module.id,
        namespace: module.organization,
        name: module.name,
        provider: module.provider,
        status: own.some((version) => version.status === 'ok') ? 'setup_complete' : 'pending',
        'no-code': module.noCode,
        downloads: module.downloads,
        description: module.description,
        'created-at': module.createdAt,
        'updated-at': module.updatedAt,
      }
    }),
    versions: versions.map((version) => {
      const module = moduleOf.get(version.moduleId)
      return {
        id: version.id,
        module: module ? `${module.organization}/${module.name}/${module.provider}` : `${version.organization}/${version.name}/${version.provider}`,
        'registry-module': version.moduleId,
        version: version.version,
        status: version.status,
        deprecation: version.deprecation && { reason: version.deprecation.reason, link: version.deprecation.link, 'created-at': version.deprecation.createdAt },
        revocation: version.revocation ? { status: 'revoked', message: version.revocation.message, link: version.revocation.link } : { status: 'unrevoked' },
        'commit-sha': version.commitSha,
        'created-at': version.createdAt,
        'updated-at': version.updatedAt,
        'published-at': version.publishedAt,
      }
    }),
  }
}

// --- the fake cloud: instances and principals come from its control routes; keys from the state -----------

/** Access keys as IAM and STS name them; `Expiration` as RFC 3339 for session keys. */
export function accessKeys(state) {
  return values(state['fake-cloud.access-keys']).map((key) => ({
    access_key_id: key.access_key_id,
    owner_arn: key.owner_arn,
    account_id: key.account_id,
    kind: key.kind,
    status: key.status,
    create_date: key.create_date,
    expiration: iso(key.expires_ms),
    session_name: key.session_name,
    secret_access_key: key.secret_access_key,
    session_token: key.session_token,
  }))
}

export const accounts = (state) => Object.keys(state['fake-cloud.accounts'] ?? {})
