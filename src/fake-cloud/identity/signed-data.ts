import { createHash, sign } from 'node:crypto'
import { derSetOf, derTime, oid, tlv, TAG } from './der.ts'
import type { Signer } from './signing-material.ts'

/**
 * PKCS#7/CMS SignedData as AWS builds the instance identity signatures (reference §2.4, §3.5): the document
 * embedded, no certificates, one SignerInfo by issuer and serial (copied as raw DER from the certificate),
 * signed attributes contentType, signingTime and messageDigest in DER `SET OF` order, and the signature made
 * over that SET with its universal tag `0x31`, which is what Go-style verifiers re-encode and check.
 */
export type SignedDataDigest = 'sha256' | 'sha1'

const NULL = tlv(TAG.NULL)
const OID_SIGNED_DATA = oid('1.2.840.113549.1.7.2')
const OID_DATA = oid('1.2.840.113549.1.7.1')
const OID_CONTENT_TYPE = oid('1.2.840.113549.1.9.3')
const OID_MESSAGE_DIGEST = oid('1.2.840.113549.1.9.4')
const OID_SIGNING_TIME = oid('1.2.840.113549.1.9.5')
const DIGEST_ALGORITHM: Record<SignedDataDigest, Buffer> = {
  sha256: tlv(TAG.SEQUENCE, oid('2.16.840.1.101.3.4.2.1'), NULL),
  sha1: tlv(TAG.SEQUENCE, oid('1.3.14.3.2.26'), NULL),
}
const RSA_ENCRYPTION = tlv(TAG.SEQUENCE, oid('1.2.840.113549.1.1.1'), NULL)
const DSA_WITH_SHA1 = tlv(TAG.SEQUENCE, oid('1.2.840.10040.4.3'))

/** DER of a ContentInfo holding SignedData over `content`, signed at `signingMs` (clamped into the certificate's validity). */
export function buildSignedData(content: Buffer, signer: Signer, digest: SignedDataDigest, signingMs: number): Buffer {
  const attribute = (type: Buffer, value: Buffer) => tlv(TAG.SEQUENCE, type, tlv(TAG.SET, value))
  const signingTime = Math.min(Math.max(signingMs, signer.notBeforeMs), signer.notAfterMs)
  const attributes = [
    attribute(OID_CONTENT_TYPE, OID_DATA),
    attribute(OID_SIGNING_TIME, derTime(signingTime)),
    attribute(OID_MESSAGE_DIGEST, tlv(TAG.OCTET_STRING, createHash(digest).update(content).digest())),
  ]
  const signedAttributes = derSetOf(attributes)
  const signature = sign(digest, signedAttributes, signer.key)
  const isDsa = signer.key.asymmetricKeyType === 'dsa'
  const signerInfo = tlv(
    TAG.SEQUENCE,
    tlv(TAG.INTEGER, Buffer.from([1])),
    tlv(TAG.SEQUENCE, signer.issuerDer, signer.serialDer),
    DIGEST_ALGORITHM[digest],
    Buffer.concat([Buffer.from([TAG.CONTEXT_0]), signedAttributes.subarray(1)]),
    isDsa ? DSA_WITH_SHA1 : RSA_ENCRYPTION,
    tlv(TAG.OCTET_STRING, signature),
  )
  const signedData = tlv(
    TAG.SEQUENCE,
    tlv(TAG.INTEGER, Buffer.from([1])),
    tlv(TAG.SET, DIGEST_ALGORITHM[digest]),
    tlv(TAG.SEQUENCE, OID_DATA, tlv(TAG.CONTEXT_0, tlv(TAG.OCTET_STRING, content))),
    tlv(TAG.SET, signerInfo),
  )
  return tlv(TAG.SEQUENCE, OID_SIGNED_DATA, tlv(TAG.CONTEXT_0, signedData))
}
