import type { Emulator } from '../../core/emulator.ts'
import { refuseUnknownOptions, serviceOptions } from '../../core/service-descriptor.ts'

/** The auth method's own options: `createDoppel({ cloudAuth: { allowSha1: true } })`. */
export interface CloudAuthOptions {
  /** Accept SHA-1-based signatures at ec2 login (the real service's `GODEBUG=x509sha1=1` workaround). */
  allowSha1?: boolean
  /** Environment read for the service's own credentials (the profile's names, `CLOUD_*` or `AWS_*`). Default: `process.env`. */
  env?: Record<string, string | undefined>
}

/** The options `createDoppel({ cloudAuth })` gave, checked. */
export function checkCloudAuthOptions(given: Readonly<Record<string, unknown>>): CloudAuthOptions {
  refuseUnknownOptions(given, ['allowSha1', 'env'], 'cloudAuth')
  const { allowSha1, env } = given
  if (allowSha1 !== undefined && typeof allowSha1 !== 'boolean') throw new TypeError(`cloudAuth.allowSha1 must be true or false, not ${String(allowSha1)}`)
  if (env !== undefined && (typeof env !== 'object' || env === null)) throw new TypeError(`cloudAuth.env must be an object of variables, not ${String(env)}`)
  return given as CloudAuthOptions
}

/** This emulator's auth method options, kept under the service's name (`EmulatorOptions.services`). */
export function cloudAuthOptions(emulator: Emulator): CloudAuthOptions {
  return serviceOptions(emulator, 'cloud-auth')
}
