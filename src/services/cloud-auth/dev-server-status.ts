import type { RequestContext } from '../../core/glossary.ts'
import { jsonResponse } from '../../core/http.ts'
import { authProfile } from './auth-profile.ts'
import { authError } from './envelope.ts'
import { explainResponse, type Explanation } from '../../core/explanation.ts'
import { parseGoBool } from '../../core/go/go-strconv.ts'
import { LightResponse } from '../../core/light-response.ts'
import { uuidLayout } from '../../core/random.ts'
import type { RequestRoute } from './routing/api-route.ts'

/** The Vault release whose shapes these answers follow, and which they name as `version`. */
export const VAULT_VERSION = '1.21.4'

/**
 * `/v1/sys/health`, `/v1/sys/seal-status` and `/v1/sys/leader`, unauthenticated, as a Vault dev server answers
 * them (initialised, unsealed, active; one Shamir share, in-memory storage, no HA), where the profile says so:
 * clients and health checks call them before anything else, and `vault status` reads the last two. The fields
 * are Vault 1.21.4's (http/sys_health.go `HealthResponse`, vault/logical_system.go `SealStatusResponse` and
 * `LeaderResponse`). The cluster's name and id are made once for the instance, as a dev server makes them at
 * start; `build_date` is empty, as doppel is no Vault build. Another method is refused with 405, as Vault's
 * handlers refuse it (sys/health also answers HEAD).
 */
export const DEV_SERVER_STATUS_ROUTES: readonly RequestRoute[] = [
  {
    path: 'sys/health',
    reads: 'request',
    token: 'none',
    profile: (profile) => authProfile(profile).devServerStatus,
    describe: { get: { summary: "The server's health, as a Vault dev server answers it", answers: { '200': 'Initialised, unsealed, active' }, bare: true } },
    run: ({ request, context, url }) => (request.method === 'GET' || request.method === 'HEAD' ? health(context, url, request.method === 'HEAD') : authError(405)),
  },
  {
    path: 'sys/seal-status',
    reads: 'request',
    token: 'none',
    profile: (profile) => authProfile(profile).devServerStatus,
    describe: { get: { summary: "The seal's status, as a Vault dev server answers it", answers: { '200': 'Unsealed, one Shamir share' }, bare: true } },
    run: ({ request, context }) => (request.method === 'GET' ? sealStatus(context) : authError(405)),
  },
  {
    path: 'sys/leader',
    reads: 'request',
    token: 'none',
    profile: (profile) => authProfile(profile).devServerStatus,
    describe: { get: { summary: 'The HA leader, as a Vault dev server answers it (HA not enabled)', answers: { '200': 'HA not enabled' }, bare: true } },
    run: ({ request }) => (request.method === 'GET' ? leader() : authError(405)),
  },
]

/** The `?<state>code=` parameters of sys/health: the status to answer with in each state. */
const STATUS_CODE_PARAMETERS = ['uninitcode', 'sealedcode', 'standbycode', 'activecode', 'drsecondarycode', 'performancestandbycode', 'haunhealthycode', 'removedcode']

/**
 * The status sys/health answers with: `activecode` (default 200), the server being active, once every
 * parameter reads as Vault reads it (`standbyok`, `perfstandbyok` as bools, the codes as integers); a
 * bad one is 400 with no error text. Go's server cannot write a status below 100 or above 999 (the handler
 * panics and the connection closes unanswered): such a code is 400 here. A 1xx code is sent by Go as an
 * interim answer before a 200, which doppel answers alone.
 */
function healthStatus(url: URL): { status: number } | { refusal: Explanation } {
  const query = url.searchParams
  for (const name of ['standbyok', 'perfstandbyok']) {
    const value = query.get(name)
    if (value === null) continue
    try {
      parseGoBool(value)
    } catch {
      return { refusal: { rule: `sys/health ${name}`, seen: value, expected: 'a Go bool: true, false, 1, 0, t, f' } }
    }
  }
  let status = 200
  for (const name of STATUS_CODE_PARAMETERS) {
    const value = query.get(name)
    if (value === null) continue
    const code = /^[+-]?\d{1,18}$/.test(value) ? Number(value) : Number.NaN
    if (!(code >= 100 && code <= 999)) {
      return { refusal: { rule: `sys/health ${name}`, seen: value, expected: 'an HTTP status from 100 to 999', hint: 'the real server answers no other (it closes the connection)' } }
    }
    if (name === 'activecode') status = Math.max(code, 200)
  }
  return { status }
}

const NO_BODY = new Set([204, 205, 304])

/** Vault's handler marks every answer `Cache-Control: no-store` (http/handler.go), these too. */
const NO_STORE = { 'Cache-Control': 'no-store' }

/** A status path's answer: the JSON body and Vault's headers. */
export function statusAnswer(status: number, body: unknown): Response {
  return jsonResponse(status, body, NO_STORE)
}

function health(context: RequestContext, url: URL, head: boolean): Response {
  const decided = url.search === '' ? { status: 200 } : healthStatus(url)
  if ('refusal' in decided) return explainResponse(authError(400), decided.refusal)
  // Go writes no body for HEAD, 204 or 304 (and Fetch allows none with 205 either).
  if (head || NO_BODY.has(decided.status)) return new LightResponse(null, { status: decided.status, headers: { 'Content-Type': 'application/json', ...NO_STORE } })
  const cluster = devCluster(context)
  return statusAnswer(decided.status, {
    initialized: true,
    sealed: false,
    standby: false,
    performance_standby: false,
    replication_performance_mode: 'disabled',
    replication_dr_mode: 'disabled',
    server_time_utc: Math.floor(context.emulator.clock.nowMs() / 1000),
    version: VAULT_VERSION,
    enterprise: false,
    cluster_name: cluster.name,
    cluster_id: cluster.id,
    echo_duration_ms: 0,
    clock_skew_ms: 0,
    replication_primary_canary_age_ms: 0,
  })
}

function sealStatus(context: RequestContext): Response {
  const cluster = devCluster(context)
  return statusAnswer(200, {
    type: 'shamir',
    initialized: true,
    sealed: false,
    t: 1,
    n: 1,
    progress: 0,
    nonce: '',
    version: VAULT_VERSION,
    build_date: '',
    migration: false,
    cluster_name: cluster.name,
    cluster_id: cluster.id,
    recovery_seal: false,
    storage_type: 'inmem',
  })
}

/** Without HA (a dev server's in-memory storage), no node leads: the zero active time is written out. */
function leader(): Response {
  return statusAnswer(200, {
    ha_enabled: false,
    is_self: false,
    active_time: '0001-01-01T00:00:00Z',
    leader_address: '',
    leader_cluster_address: '',
    performance_standby: false,
    performance_standby_last_remote_wal: 0,
  })
}

/**
 * The cluster a dev server names at start: `vault-cluster-` and 8 hex digits, and an id of 16 random bytes
 * in the UUID layout (go-uuid sets no version bits); fixed for the instance (`Random.fixed`).
 */
function devCluster(context: RequestContext): { name: string; id: string } {
  const hex = context.emulator.random.fixed('dev cluster').toString('hex')
  return { name: `vault-cluster-${hex.slice(0, 8)}`, id: uuidLayout(hex.slice(8, 40)) }
}
