/**
 * Every path the auth method answers under `/v1/`, as rows: the token store's routes, `sys/auth`,
 * Vault's own document where the profile serves it, and the mounts, each with its own rows (`login`, then
 * the endpoints of `auth-routes.ts`). The service's edge matches here, checks the token a row needs and
 * runs it; the OpenAPI document and the robustness corpus read the same rows.
 */
import { PROFILES, type Profile } from '../../../core/profile.ts'
import type { RequestContext } from '../../../core/glossary.ts'
import { explainResponse, listText, type Explanation } from '../../../core/explanation.ts'
import { mount, RouteTable, type RouteMatch, type RouteRow } from '../../../core/routing/index.ts'
import { MESSAGES } from '../auth-messages.ts'
import { authError, multiError } from '../envelope.ts'
import { handleLogin } from '../login/index.ts'
import { LOGIN_SCHEMA } from '../login/login-input.ts'
import { mountTable, TOKEN_MOUNT } from '../mounts/mount-table.ts'
import { apiPath, mountPath } from '../urls.ts'
import { runTune, SYS_AUTH_ROUTES } from '../mounts/sys-auth.ts'
import { authState } from '../state.ts'
import { runPeriodicTidy } from '../tidy/remove-expired.ts'
import { CAPABILITIES_ROUTES, REVOKE_PREFIX_ROUTES, TOKEN_ROUTES } from '../tokens/index.ts'
import { VAULT_OPENAPI_ROUTE } from '../vault-openapi.ts'
import { DEV_SERVER_STATUS_ROUTES } from '../dev-server-status.ts'
import { SYS_INIT_ROUTE } from '../sys-init.ts'
import { answerError } from '../answer-error.ts'
import { authProfile } from '../auth-profile.ts'
import { currentPath } from './aliases.ts'
import type { ApiRoute, MountCall, OperationCall, OperationRoute } from './api-route.ts'
import { ENDPOINTS } from './auth-routes.ts'
import { isNameSegment, type Endpoint } from './endpoint.ts'
import { unsupportedOperation } from './http-operation.ts'

/** `login` (unauthenticated): a token sent with it is ignored; what it throws is answered bare, as the real service's login does. */
const LOGIN: OperationRoute<MountCall> = {
  path: 'login',
  reads: 'operation',
  token: 'none',
  describe: {
    post: {
      summary: 'Log in with an ec2 identity document (pkcs7, or identity + signature) or a signed iam GetCallerIdentity',
      body: LOGIN_SCHEMA,
      answers: { '200': 'A token in `auth`', '400': 'Login refused: the reason', '403': 'Login refused: permission denied', '405': 'unsupported operation' },
    },
  },
  async run({ context, mount: at, operation, data }) {
    if (operation !== 'update') return unsupportedOperation(true)
    runPeriodicTidy(authState(context.emulator, at), context.emulator.clock.nowMs())
    try {
      return await handleLogin(context, at, data)
    } catch (error) {
      return answerError(error, 'login', authProfile(context.profile))
    }
  },
}

/** A row under a mount: `login`, or one of the method's endpoints. */
export type MountRoute = OperationRoute<MountCall> | Endpoint

/**
 * The rows of one mount, relative to it, in the real service's order (docs/reference/cloud-auth.md §1.4);
 * `login` last, which no endpoint's pattern matches. Paths arrive percent-decoded; a name segment breaking
 * the real service's rule matches no row.
 */
const MOUNT_TABLE = new RouteTable<MountRoute>([...ENDPOINTS, LOGIN], { trailingSlash: 'as-written', segment: isNameSegment })

/** Where the mounts sit: `auth/<mount>/…`, a mount being any path the emulator's mount table holds. */
export interface MountPoint extends RouteRow {
  readonly reads: 'mount'
  /** A mount's rows, relative to it. */
  readonly rows: readonly MountRoute[]
  /** The row for a mount-relative path (deprecated names included), or undefined. */
  match(relative: string): RouteMatch<MountRoute> | undefined
  /** The mount's paths nearest a mount-relative path no row has, for an explanation. */
  nearest(relative: string): string[]
}

const MOUNTS: MountPoint = {
  path: 'auth/*',
  reads: 'mount',
  rows: MOUNT_TABLE.rows,
  match(relative) {
    const match = MOUNT_TABLE.match('', currentPath(relative))
    return typeof match === 'number' ? undefined : match
  },
  nearest: (relative) => MOUNT_TABLE.nearest(relative),
}

/**
 * What a mounted backend's other paths answer, after the token check: the token mount's and the system
 * backend's (`sys/`), of which doppel emulates only the paths above it in the table.
 */
const unsupportedRest = (path: string): OperationRoute => ({
  path,
  reads: 'operation',
  token: 'root',
  run: ({ context, path }) => explainResponse(authError(404, multiError(MESSAGES.unsupportedPath)), elsewhere(context, path)),
})

/** The system backend's paths doppel does not emulate. */
const SYS_NOT_EMULATED = unsupportedRest('sys/*')

/** Why a path under `/v1/` reaches no route: where the auth method and Vault's system paths answer. */
export function elsewhere(context: RequestContext, path: string): Explanation {
  const mounts = mountTable(context.emulator)
    .entries()
    .map((entry) => entry.path)
  return {
    rule: 'route',
    seen: apiPath(path),
    hint: `the auth method answers under ${mountPath('<mount>')}/ (mounts here: ${listText(mounts)}), Vault's system paths under ${apiPath('sys/auth')} and ${apiPath(`auth/${TOKEN_MOUNT}/`)}`,
  }
}

/**
 * The rows under `/v1/`, in the order they are tried and described (the mounts' rows lead the document).
 * Only one may match a path except `auth/<token mount>/*` and `auth/*`: the token mount is never an auth
 * method's mount (`MountTable.conflict`), so its paths are refused before the mounts are asked.
 */
export const API_ROUTES: readonly (ApiRoute | MountPoint)[] = [
  ...mount(`auth/${TOKEN_MOUNT}/`, [...TOKEN_ROUTES, unsupportedRest('*')]),
  ...SYS_AUTH_ROUTES,
  VAULT_OPENAPI_ROUTE,
  ...DEV_SERVER_STATUS_ROUTES,
  SYS_INIT_ROUTE,
  ...CAPABILITIES_ROUTES,
  ...REVOKE_PREFIX_ROUTES,
  { ...SYS_NOT_EMULATED, path: 'sys/mounts/auth/*', run: (call: OperationCall) => runTune(call) ?? SYS_NOT_EMULATED.run(call) },
  SYS_NOT_EMULATED,
  MOUNTS,
]

/** Each profile's table: the rows it serves, so that a path a row of another profile has falls to the next row. */
const API_TABLES = new Map(
  PROFILES.map((profile) => [
    profile.name,
    new RouteTable(
      API_ROUTES.filter((row) => row.reads === 'mount' || row.profile?.(profile) !== false),
      { trailingSlash: 'as-written' },
    ),
  ]),
)

/** The row for a path under `/v1/` that the profile serves, or undefined. */
export function matchApiRoute(profile: Profile, path: string): RouteMatch<ApiRoute | MountPoint> | undefined {
  const match = API_TABLES.get(profile.name)!.match('', path)
  return typeof match === 'number' ? undefined : match
}

