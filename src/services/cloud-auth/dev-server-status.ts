import type { RequestContext } from '../../core/glossary.ts'
import { jsonResponse } from '../../core/http.ts'
import { authProfile } from './auth-profile.ts'
import { authError } from './envelope.ts'
import type { RequestRoute } from './routing/api-route.ts'

/** The Vault release whose shapes these answers follow, and which they name as `version`. */
const VERSION = '1.21.4'

/**
 * `GET /v1/sys/health` and `GET /v1/sys/seal-status`, unauthenticated, as a Vault dev server answers them
 * (initialised, unsealed, active; one Shamir share, in-memory storage), where the profile says so: clients
 * and health checks call them before anything else. The fields are Vault 1.21.4's (http/sys_health.go
 * `HealthResponse`, vault/logical_system.go `SealStatusResponse`); the fields Vault leaves out when empty
 * (cluster name and id) are left out, and `build_date` is empty, as doppel is no Vault build. Another
 * method is refused with 405, as Vault's handlers refuse it.
 */
export const DEV_SERVER_STATUS_ROUTES: readonly RequestRoute[] = [
  {
    path: 'sys/health',
    reads: 'request',
    token: 'none',
    profile: (profile) => authProfile(profile).devServerStatus,
    describe: { get: { summary: "The server's health, as a Vault dev server answers it", answers: { '200': 'Initialised, unsealed, active' }, bare: true } },
    run: ({ request, context }) => (request.method === 'GET' ? health(context) : authError(405)),
  },
  {
    path: 'sys/seal-status',
    reads: 'request',
    token: 'none',
    profile: (profile) => authProfile(profile).devServerStatus,
    describe: { get: { summary: "The seal's status, as a Vault dev server answers it", answers: { '200': 'Unsealed, one Shamir share' }, bare: true } },
    run: ({ request }) => (request.method === 'GET' ? sealStatus() : authError(405)),
  },
]

function health(context: RequestContext): Response {
  return jsonResponse(200, {
    initialized: true,
    sealed: false,
    standby: false,
    performance_standby: false,
    replication_performance_mode: 'disabled',
    replication_dr_mode: 'disabled',
    server_time_utc: Math.floor(context.emulator.clock.nowMs() / 1000),
    version: VERSION,
    enterprise: false,
    echo_duration_ms: 0,
    clock_skew_ms: 0,
    replication_primary_canary_age_ms: 0,
  })
}

function sealStatus(): Response {
  return jsonResponse(200, {
    type: 'shamir',
    initialized: true,
    sealed: false,
    t: 1,
    n: 1,
    progress: 0,
    nonce: '',
    version: VERSION,
    build_date: '',
    migration: false,
    recovery_seal: false,
    storage_type: 'inmem',
  })
}
