import { explanationOf, type Explanation } from '../../../../core/explanation.ts'
import { decodeStdBase64 } from '../../../../core/go/go-base64.ts'
import { BAD_INPUT_500 } from '../../auth-refusal.ts'
import { LoginError } from '../login-error.ts'
import { LOGIN_MESSAGES } from '../login-messages.ts'
import { Asn1Error } from '../../../../core/asn1.ts'
import { parseIdentityDocument, type IdentityDocument } from './identity-document.ts'
import { verifyIdentitySignature } from './identity-signature.ts'
import { parsePkcs7, Pkcs7Error, verifyPkcs7 } from './pkcs7-verify.ts'
import type { TrustedCertificate } from './trusted-certificate.ts'

/**
 * The `pkcs7` value verified and decoded (docs/reference/cloud-auth.md §4 B1): PEM-wrapped and decoded (spaces, tabs and
 * line breaks tolerated), parsed as BER, verified against the trusted certificates, its embedded
 * document decoded.
 */
export function documentFromPkcs7(value: string, trusted: readonly TrustedCertificate[], allowSha1: boolean): IdentityDocument {
  const bytes = decodeStdBase64(value.replace(/[ \t]/g, ''))
  if (!bytes) throw new LoginError(LOGIN_MESSAGES.pkcs7Pem, BAD_INPUT_500).explain(undecodable('is not base64', value))
  let signed
  try {
    signed = parsePkcs7(bytes)
  } catch (error) {
    if (error instanceof Asn1Error) {
      throw new LoginError(LOGIN_MESSAGES.pkcs7Parse(error.message), BAD_INPUT_500).explain(undecodable(`decodes, but not as a PKCS#7 SignedData (${error.message})`, value))
    }
    throw error
  }
  try {
    verifyPkcs7(signed, { trusted, allowSha1 })
  } catch (error) {
    if (error instanceof Pkcs7Error) throw new LoginError(LOGIN_MESSAGES.pkcs7Verify(error.message), BAD_INPUT_500).explain(explanationOf(error, 'pkcs7 signature'))
    throw error
  }
  if (signed.content.length === 0) {
    throw new LoginError(LOGIN_MESSAGES.pkcs7NoContent, BAD_INPUT_500).explain({ rule: 'pkcs7', seen: 'a SignedData with no content', expected: 'the instance identity document inside it' })
  }
  return parseIdentityDocument(signed.content)
}

/** Why a `pkcs7` value did not decode: what it should be, and where to get one. */
function undecodable(why: string, value: string): Explanation {
  return {
    rule: 'pkcs7',
    seen: `a value of ${value.length} characters that ${why}`,
    expected: 'the base64 body of an IMDS identity document under /latest/dynamic/instance-identity/ (rsa2048, or pkcs7), without its PEM header and footer (line breaks are fine)',
    hint: 'take it from the fake IMDS or doppel.cloud.identityDocument(instanceId, "rsa2048"); the service profile refuses the SHA-1 pkcs7 document unless allowSha1 is set',
  }
}

/** The identity + signature pair verified (docs/reference/cloud-auth.md §4 B2) and the document decoded. */
export function documentFromSignature(
  identity: Buffer,
  signature: Buffer,
  trusted: readonly TrustedCertificate[],
  allowSha1: boolean,
): IdentityDocument {
  verifyIdentitySignature(identity, signature, trusted, allowSha1)
  return parseIdentityDocument(identity)
}
