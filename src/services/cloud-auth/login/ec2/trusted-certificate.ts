import type { KeyObject } from 'node:crypto'
import { encodeDer, parseBer, readIntegerHex, readOid, readTime, requireTag, TAG, tagOf } from '../../../../core/asn1.ts'
import { readPemCertificate } from '../../pem/pem-certificate.ts'

/** What the verifiers need from one trusted certificate, parsed once. */
export interface TrustedCertificate {
  /** The issuer Name exactly as encoded in the certificate (signers are matched on these bytes). */
  rawIssuer: Buffer
  /** Serial number magnitude, lower-case hex. */
  serialHex: string
  notBefore: number
  notAfter: number
  publicKey: KeyObject
  /** Go's name for the certificate's own signature algorithm when it is SHA-1-based, e.g. `SHA1-RSA`. */
  sha1Algorithm: string | undefined
}

const SHA1_CERT_ALGORITHMS: Record<string, string> = {
  '1.2.840.113549.1.1.5': 'SHA1-RSA',
  '1.2.840.10040.4.3': 'DSA-SHA1',
  '1.2.840.10045.4.1': 'ECDSA-SHA1',
}

/**
 * Parses one PEM certificate, read as the certificate endpoint checked it (`readPemCertificate`);
 * undefined when it holds no certificate.
 */
export function parseTrustedCertificate(pem: string): TrustedCertificate | undefined {
  const x509 = readPemCertificate(pem).certificate
  if (!x509) return undefined
  try {
    const certificate = requireTag(parseBer(x509.raw), TAG.SEQUENCE, 'certificate')
    const tbs = requireTag(certificate.children[0], TAG.SEQUENCE, 'tbsCertificate').children
    let index = tagOf(tbs[0]!) === 0xa0 ? 1 : 0
    const serialHex = readIntegerHex(tbs[index++], 'serialNumber')
    index++ // signature AlgorithmIdentifier inside the TBS
    const issuer = requireTag(tbs[index++], TAG.SEQUENCE, 'issuer')
    const validity = requireTag(tbs[index], TAG.SEQUENCE, 'validity').children
    const signatureAlgorithm = readOid(requireTag(certificate.children[1], TAG.SEQUENCE, 'signatureAlgorithm').children[0], 'algorithm')
    return {
      rawIssuer: encodeDer(issuer),
      serialHex,
      notBefore: readTime(validity[0], 'notBefore'),
      notAfter: readTime(validity[1], 'notAfter'),
      publicKey: x509.publicKey,
      sha1Algorithm: SHA1_CERT_ALGORITHMS[signatureAlgorithm],
    }
  } catch {
    return undefined
  }
}
