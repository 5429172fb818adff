/**
 * `sys/auth`: enabling, disabling and listing mounts of the auth method, so conformance runs can work
 * on a fresh mount. Only the method's own type (`aws`) can be enabled.
 */
import type { RequestContext } from '../../../core/glossary.ts'
import { authError, authResponse, multiError, noContent } from '../envelope.ts'
import { explainResponse } from '../../../core/explanation.ts'
import { toStringField } from '../fields/index.ts'
import { MESSAGES } from '../auth-messages.ts'
import type { OperationCall, OperationRoute } from '../routing/api-route.ts'
import { mountTable, TOKEN_MOUNT, type MountEntry } from './mount-table.ts'
import { VAULT_VERSION } from '../dev-server-status.ts'
import { uuidLayout } from '../../../core/random.ts'
import { MOUNT_DEFAULT_TTL, MOUNT_MAX_TTL } from '../limits.ts'

function mountData(type: string, entry: Pick<MountEntry, 'accessor' | 'uuid' | 'description'>): Record<string, unknown> {
  return {
    accessor: entry.accessor,
    config: { default_lease_ttl: 0, force_no_cache: false, max_lease_ttl: 0, token_type: 'default-service' },
    description: entry.description,
    external_entropy_access: false,
    local: false,
    // Mounts enabled through sys/auth hold an empty options map; the token mount, made at init, none.
    options: type === 'token' ? null : {},
    plugin_version: '',
    // A builtin plugin reports the server's version (the release the vault profile names).
    running_plugin_version: `v${VAULT_VERSION}+builtin${type === 'token' ? '.vault' : ''}`,
    running_sha256: '',
    seal_wrap: false,
    type,
    uuid: entry.uuid,
  }
}

/** The token mount, made at init: its accessor and id fixed for the instance, as a server's are for its life. */
function tokenMount(context: RequestContext): Pick<MountEntry, 'accessor' | 'uuid' | 'description'> {
  const hex = context.emulator.random.fixed('token mount').toString('hex')
  return { accessor: `auth_token_${hex.slice(0, 8)}`, uuid: uuidLayout(hex.slice(8, 40)), description: 'token based credentials' }
}

function listMounts(context: RequestContext): Response {
  const mounts: Record<string, unknown> = { [`${TOKEN_MOUNT}/`]: mountData('token', tokenMount(context)) }
  for (const entry of mountTable(context.emulator).entries()) mounts[`${entry.path}/`] = mountData('aws', entry)
  return authResponse(context, { data: mounts, topLevel: mounts, mountType: 'system' })
}

/** A mount's own entry (`GET sys/auth/:path`), in the list's shape; the real service's 400 for a path with none. */
function readMount(context: RequestContext, path: string): Response {
  const entry = path === TOKEN_MOUNT ? tokenMount(context) : mountTable(context.emulator).get(path)
  if (entry === undefined) {
    return explainResponse(authError(400, MESSAGES.noAuthEngine(`${path}/`)), { rule: 'mount path', seen: path, hint: 'list the mounts with GET sys/auth' })
  }
  const data = mountData(path === TOKEN_MOUNT ? 'token' : 'aws', entry)
  return authResponse(context, { data, topLevel: data, mountType: 'system' })
}

/**
 * `GET sys/auth/<path>/tune`: the mount's tunable settings, as the real service reads them for a mount no
 * one tuned (the system's TTLs; doppel emulates no tuning). A path with no mount: its 400.
 */
function readTune(context: RequestContext, path: string): Response {
  // The mount holding the path, by its longest prefix (Vault's MatchingSystemView): `aws/x` is `aws`'s.
  const table = mountTable(context.emulator)
  const held = table.resolve(path)?.mount
  const mount = path === TOKEN_MOUNT || path.startsWith(`${TOKEN_MOUNT}/`) ? tokenMount(context) : held === undefined ? undefined : table.get(held)
  if (mount === undefined) {
    return explainResponse(authError(400, MESSAGES.noSysView(`auth/${path}/`)), { rule: 'mount path', seen: path, hint: 'list the mounts with GET sys/auth' })
  }
  const data = { default_lease_ttl: MOUNT_DEFAULT_TTL, description: mount.description, force_no_cache: false, max_lease_ttl: MOUNT_MAX_TTL, token_type: 'default-service' }
  return authResponse(context, { data, topLevel: data, mountType: 'system' })
}

/** The type to enable: `type`, or for `plugin` its `plugin_name`; the real service's refusal where it has one. */
function mountType(type: string, pluginName: string): string | Response {
  if (type === '') return explainResponse(authError(400, MESSAGES.backendTypeMissing), { rule: 'mount type', seen: 'no type', expected: 'type aws' })
  if (type !== 'plugin') return type
  if (pluginName === '') return explainResponse(authError(400, MESSAGES.pluginNameMissing), { rule: 'mount type', seen: 'type plugin without plugin_name', expected: 'type aws' })
  return pluginName
}

function enable(context: RequestContext, path: string, data: Record<string, unknown>): Response {
  // Every field is read (and a wrong-typed one refused) before the type is judged, as the real service does.
  const given = toStringField(data.type, 'type')
  const description = toStringField(data.description, 'description')
  const type = mountType(given, toStringField(data.plugin_name, 'plugin_name'))
  if (typeof type !== 'string') return type
  if (type !== 'aws') return explainResponse(authError(400, MESSAGES.pluginNotFound(type)), { rule: 'mount type', seen: type, expected: 'aws (the one auth method doppel emulates)' })
  const table = mountTable(context.emulator)
  const conflict = table.conflict(path)
  if (conflict !== undefined) {
    return explainResponse(authError(400, MESSAGES.pathInUse(`${conflict}/`)), { rule: 'mount path', seen: path, hint: `${conflict}/ is mounted already; pick a path that neither holds nor sits under it` })
  }
  table.enable(path, description)
  return noContent()
}

const unsupportedOperation = () => authError(405, multiError(MESSAGES.unsupportedOperation))

/** `sys/auth`: a read lists the mounts; another operation is 405 (a LIST is routed as `sys/auth/`). */
const runMountList = ({ context, operation }: OperationCall) => (operation === 'read' ? listMounts(context) : unsupportedOperation())

/**
 * `sys/auth/<rest>`, matched as Vault's system backend matches it (`auth/(?P<path>.+?)/tune$`, then
 * `auth/(?P<path>.+)`): `<path>/tune` reads a mount's tuning; any other rest of one character or more is a
 * mount's path, a trailing slash included (`aws/` is the mount `aws`, `aws/tune/` a path with no mount).
 */
function runMount({ context, operation, rest, data }: OperationCall): Response {
  if (rest === '') return explainResponse(authError(404, multiError(MESSAGES.unsupportedPath)), { rule: 'route', seen: 'sys/auth/', hint: 'list the mounts with GET sys/auth' })
  const tune = /^(.+?)\/tune$/.exec(rest)
  if (tune) {
    if (operation === 'read') return readTune(context, tune[1]!)
    if (operation !== 'update') return unsupportedOperation()
    return explainResponse(authError(404, multiError(MESSAGES.unsupportedPath)), { rule: 'route', seen: `sys/auth/${rest}`, hint: "doppel emulates reading a mount's tuning, not changing it" })
  }
  const path = rest.endsWith('/') ? rest.slice(0, -1) : rest
  if (operation === 'read') return readMount(context, path)
  if (operation === 'update') return enable(context, path, data)
  if (operation === 'delete') {
    mountTable(context.emulator).disable(path)
    return noContent()
  }
  return unsupportedOperation()
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
