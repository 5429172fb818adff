import type { RequestContext } from '../../../../core/glossary.ts'
import { getFakeCloud } from '../../../fake-cloud/index.ts'
import type { CertificateType } from '../../glossary.ts'
import type { AuthState } from '../../state.ts'
import { parseTrustedCertificate, type TrustedCertificate } from './trusted-certificate.ts'

/** Registered certificates come and go; past this many parsed PEMs the cache starts over. */
const CACHE_LIMIT = 1024

/**
 * The certificates a flow trusts (docs/reference/cloud-auth.md §3.4): every built-in certificate, for both flows, plus the
 * registered certificates of the flow's type (`pkcs7` for the PKCS#7 flow, `identity` for identity +
 * signature). Parsed certificates are cached per PEM text on the emulator instance, so a login costs
 * map lookups, not X.509 parsing.
 */
export function trustedCertificates(context: RequestContext, state: AuthState, type: CertificateType): TrustedCertificate[] {
  const cache = context.emulator.domain('cloud-auth:login-certificates', () => new Map<string, TrustedCertificate | undefined>())
  const parsed = (pem: string): TrustedCertificate | undefined => {
    if (!cache.has(pem)) {
      if (cache.size >= CACHE_LIMIT) cache.clear()
      cache.set(pem, parseTrustedCertificate(pem))
    }
    return cache.get(pem)
  }
  const builtIn = getFakeCloud(context.emulator).builtInCertificates()
  const out: TrustedCertificate[] = []
  for (const pem of [...builtIn.pkcs7, ...builtIn.identity]) {
    const certificate = parsed(pem)
    if (certificate) out.push(certificate)
  }
  for (const entry of state.certificates.values()) {
    if (entry.type !== type) continue
    const certificate = parsed(entry.pem)
    if (certificate) out.push(certificate)
  }
  return out
}
