import type { RequestContext } from '../../core/glossary.ts'
import { jsonResponse } from '../../core/http.ts'

/** The Vault release whose shapes these answers follow, and which they name as `version`. */
const VERSION = '1.21.4'

/**
 * `GET /v1/sys/health` and `GET /v1/sys/seal-status`, unauthenticated, as a Vault dev server answers them
 * (initialised, unsealed, active; one Shamir share, in-memory storage): clients and health checks call them
 * before anything else. The fields are Vault 1.21.4's (http/sys_health.go `HealthResponse`,
 * vault/logical_system.go `SealStatusResponse`); the fields Vault leaves out when empty (cluster name and id)
 * are left out, and `build_date` is empty, as doppel is no Vault build. Other paths: undefined.
 */
export function devServerStatus(path: string, request: Request, context: RequestContext): Response | undefined {
  if (request.method !== 'GET') return undefined
  if (path === 'sys/health') {
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
  if (path === 'sys/seal-status') {
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
  return undefined
}
