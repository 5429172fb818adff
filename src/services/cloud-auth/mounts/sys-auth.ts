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
import type { Operation } from '../routing/endpoint.ts'
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
  const entry = mountTable(context.emulator).get(path)
  if (entry === undefined) {
    return explainResponse(authError(400, MESSAGES.noAuthEngine(`${path}/`)), { rule: 'mount path', seen: path, hint: 'list the mounts with GET sys/auth' })
  }
  const data = mountData('aws', entry)
  return authResponse(context, { data, topLevel: data, mountType: 'system' })
}

/**
 * `GET sys/auth/<path>/tune`: the mount's tunable settings, as the real service reads them for a mount no
 * one tuned (the system's TTLs; doppel emulates no tuning). A path with no mount: its 400.
 */
function readTune(context: RequestContext, path: string): Response {
  const mount = path === TOKEN_MOUNT ? tokenMount(context) : mountTable(context.emulator).get(path)
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

/** Answers a request under `sys/auth`; `rest` is the path after `sys/auth`, slashes trimmed. */
function handleSysAuth(context: RequestContext, operation: Operation, rest: string, data: Record<string, unknown>): Response {
  const unsupported = () => authError(405, multiError(MESSAGES.unsupportedOperation))
  if (rest === '') return operation === 'read' ? listMounts(context) : unsupported()
  // `<path>/tune` is the tuning path, never a mount's own (the real service matches it first).
  if (rest.endsWith('/tune')) {
    if (operation === 'read') return readTune(context, rest.slice(0, -'/tune'.length))
    return explainResponse(authError(404, multiError(MESSAGES.unsupportedPath)), { rule: 'route', seen: `sys/auth/${rest}`, hint: 'doppel emulates reading a mount\'s tuning, not changing it' })
  }
  if (operation === 'read') return readMount(context, rest)
  if (operation === 'update') return enable(context, rest, data)
  if (operation === 'delete') {
    mountTable(context.emulator).disable(rest)
    return noContent()
  }
  return unsupported()
}

const run = ({ context, operation, rest, data }: OperationCall) => handleSysAuth(context, operation, rest.replace(/^\/+|\/+$/g, ''), data)

/** `sys/auth` and the mounts under it, relative to `/v1/`. */
export const SYS_AUTH_ROUTES: readonly OperationRoute[] = [
  {
    path: 'sys/auth',
    reads: 'operation',
    token: 'root',
    describe: { get: { summary: 'List the enabled auth mounts', answers: { '200': 'Mounts by path' } } },
    run,
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
    run,
  },
]
