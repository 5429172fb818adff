import { verify as verifySignature } from 'node:crypto'
import { BAD_INPUT_500 } from '../../auth-refusal.ts'
import { LoginError } from '../login-error.ts'
import { LOGIN_MESSAGES } from '../login-messages.ts'
import type { TrustedCertificate } from './trusted-certificate.ts'

/**
 * The identity + signature flow (docs/reference/cloud-auth.md §4 B2): RSA PKCS#1 v1.5 with SHA-256 over the exact document
 * bytes, against any one trusted certificate.
 *
 * @note SHA-1 rule (spec, Authentication 3): a signature that verifies only under a certificate that is
 * itself SHA-1-signed (as the provider's `signature` certificates are) is refused unless SHA-1 is allowed
 * (`allowSha1`, or the vault profile: Vault checks only the signature, never the certificate's own). The refusal reads `instance identity verification using SHA256 RSA signature is
 * unsuccessful: x509: cannot verify signature: insecure algorithm SHA1-RSA (temporarily override with
 * GODEBUG=x509sha1=1)`: the flow's own message, then the x509 error, so clients matching either still match.
 */
export function verifyIdentitySignature(
  document: Buffer,
  signature: Buffer,
  trusted: readonly TrustedCertificate[],
  allowSha1: boolean,
): void {
  if (document.length === 0) throw new LoginError(LOGIN_MESSAGES.missingIdentity, BAD_INPUT_500)
  if (signature.length === 0) throw new LoginError(LOGIN_MESSAGES.missingSignature, BAD_INPUT_500)
  let refusedAlgorithm: string | undefined
  for (const certificate of trusted) {
    if (certificate.publicKey.asymmetricKeyType !== 'rsa' || !safeVerify(document, certificate, signature)) continue
    if (certificate.sha1Algorithm === undefined || allowSha1) return
    refusedAlgorithm ??= certificate.sha1Algorithm
  }
  if (refusedAlgorithm !== undefined) {
    throw new LoginError(`${LOGIN_MESSAGES.identityUnverified}: ${LOGIN_MESSAGES.insecureAlgorithm(refusedAlgorithm)}`, BAD_INPUT_500)
  }
  throw new LoginError(LOGIN_MESSAGES.identityUnverified, BAD_INPUT_500)
}

function safeVerify(document: Buffer, certificate: TrustedCertificate, signature: Buffer): boolean {
  try {
    return verifySignature('sha256', document, certificate.publicKey, signature)
  } catch {
    return false
  }
}
