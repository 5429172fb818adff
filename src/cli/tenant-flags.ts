import { DurationError, parseDuration } from '../core/duration.ts'
import type { TenantOptions } from '../features/tenants/index.ts'
import { UsageError } from './usage-error.ts'

/** `--max-tenants`, `--tenant-idle-timeout` and `--tenant-heap-limit` of `doppel serve`, checked. */
export function tenantFlags(maxTenants: string | undefined, idleTimeout: string | undefined, heapLimit?: string): TenantOptions {
  const max = Number(maxTenants)
  if (!/^\d{1,6}$/.test(maxTenants ?? '')) throw new UsageError(`doppel serve: --max-tenants must be a whole number from 0 to 999999, not "${maxTenants}"`)
  let seconds: number
  try {
    seconds = parseDuration(idleTimeout, { allowFraction: true })
  } catch (error) {
    if (!(error instanceof DurationError)) throw error
    seconds = 0
  }
  if (!(seconds > 0)) throw new UsageError(`doppel serve: --tenant-idle-timeout must be a positive duration (e.g. 30m, 2h), not "${idleTimeout}"`)
  if (heapLimit !== undefined && !/^[1-9]\d{0,6}$/.test(heapLimit)) {
    throw new UsageError(`doppel serve: --tenant-heap-limit must be a whole number of MiB from 1 to 9999999, not "${heapLimit}"`)
  }
  return { maxTenants: max, idleTimeoutMs: seconds * 1000, ...(heapLimit !== undefined && { heapLimitBytes: Number(heapLimit) * 1048576 }) }
}
