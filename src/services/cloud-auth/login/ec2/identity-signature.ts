import { verify as verifySignature } from 'node:crypto'
import { BAD_INPUT_500 } from '../../auth-refusal.ts'
import { LoginError } from '../login-error.ts'
import { LOGIN_MESSAGES } from '../login-messages.ts'
import type { TrustedCertificate } from './trusted-certificate.ts'
import type { Explanation } from '../../../../core/explanation.ts'
import { mountPath } from '../../urls.ts'

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
    throw new LoginError(`${LOGIN_MESSAGES.identityUnverified}: ${LOGIN_MESSAGES.insecureAlgorithm(refusedAlgorithm)}`, BAD_INPUT_500).explain(sha1Refusal(refusedAlgorithm))
  }
  throw new LoginError(LOGIN_MESSAGES.identityUnverified, BAD_INPUT_500).explain(unknownSigner(trusted.length, 'identity'))
}

/** A signature that verifies only under a SHA-1-signed certificate, refused without `allowSha1`. */
export function sha1Refusal(algorithm: string): Explanation {
  return {
    rule: 'SHA-1 signatures',
    seen: `a signature whose certificate is signed with ${algorithm}`,
    expected: 'a SHA-256 chain',
    hint: 'start doppel with cloudAuth: { allowSha1: true } (--allow-sha1), as the real service needs GODEBUG=x509sha1=1, or use the vault profile',
  }
}

/** No trusted certificate verifies the signature. */
export function unknownSigner(trusted: number, type: 'pkcs7' | 'identity'): Explanation {
  return {
    rule: 'trusted certificates',
    seen: `a signature none of the ${trusted} trusted certificates verifies`,
    hint: `sign with the fake cloud's keys (doppel.cloud's identity documents), or register the signer with POST ${mountPath('<mount>', 'config/certificate/<name>')} (type ${type})`,
  }
}

function safeVerify(document: Buffer, certificate: TrustedCertificate, signature: Buffer): boolean {
  try {
    return verifySignature('sha256', document, certificate.publicKey, signature)
  } catch {
    return false
  }
}
