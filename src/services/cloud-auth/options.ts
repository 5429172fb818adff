import type { Emulator } from '../../core/emulator.ts'
import { serviceOptions } from '../../core/service-descriptor.ts'

/** The auth method's own options: `createDoppel({ cloudAuth: { allowSha1: true } })`. */
export interface CloudAuthOptions {
  /** Accept SHA-1-based signatures at ec2 login (the real service's `GODEBUG=x509sha1=1` workaround). */
  allowSha1?: boolean
}

/** This emulator's auth method options, kept under the service's name (`EmulatorOptions.services`). */
export function cloudAuthOptions(emulator: Emulator): CloudAuthOptions {
  return serviceOptions(emulator, 'cloud-auth')
}
