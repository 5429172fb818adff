import type { Emulator } from '../../core/emulator.ts'
import { refuseUnknownOptions, serviceOptions } from '../../core/service-descriptor.ts'
import type { SharedPool } from '../../core/shared-pool.ts'

/** The fake cloud's own options: `createDoppel({ fakeCloud: { imdsListenerLimit: 8 } })`. */
export interface FakeCloudOptions {
  /** How many per-instance IMDS listeners (sockets) may be open at once, across a server and its tenants. Default 64. */
  imdsListenerLimit?: number
}

const DEFAULT_IMDS_LISTENER_LIMIT = 64

/** The options `createDoppel({ fakeCloud })` gave, checked. */
export function checkFakeCloudOptions(given: Readonly<Record<string, unknown>>): FakeCloudOptions {
  refuseUnknownOptions(given, ['imdsListenerLimit'], 'fakeCloud')
  const { imdsListenerLimit: limit } = given
  if (limit !== undefined && !(Number.isSafeInteger(limit) && (limit as number) >= 0)) {
    throw new RangeError(`fakeCloud.imdsListenerLimit must be a whole number ≥ 0, not ${String(limit)}`)
  }
  return given as FakeCloudOptions
}

/** The metadata listeners open at once, shared with the other instances of a server (one pool for all). */
export function imdsListenerPool(emulator: Emulator): SharedPool {
  const limit = serviceOptions<FakeCloudOptions>(emulator, 'fake-cloud').imdsListenerLimit ?? DEFAULT_IMDS_LISTENER_LIMIT
  return emulator.sharedLimits.pools.pool('fake-cloud:imds-listeners', limit)
}
