import { createHash, sign } from 'node:crypto'
import { createRequire } from 'node:module'
import type { Signer } from './signing-material.ts'
import { derTimeText } from '../../../core/asn1.ts'

/**
 * PKCS#7/CMS SignedData as AWS builds the instance identity signatures (docs/reference/fake-cloud.md §2.4, docs/reference/fake-cloud.md §3.5): the document
 * embedded, no certificates, one SignerInfo by issuer and serial (copied as raw DER from the certificate),
 * signed attributes contentType, signingTime and messageDigest in DER `SET OF` order, and the signature made
 * over that SET with its universal tag `0x31`, which is what Go-style verifiers re-encode and check.
 * jsrsasign assembles the structure; node:crypto does the digest and the signature.
 */
export type SignedDataDigest = 'sha256' | 'sha1'

type Asn1 = typeof import('jsrsasign').KJUR.asn1
type Asn1Object = InstanceType<Asn1['ASN1Object']>
/** @types/jsrsasign declares the structured and string classes without their runtime ASN1Object base. */
const asObject = (value: object) => value as Asn1Object

const OID_SIGNED_DATA = '1.2.840.113549.1.7.2'
const OID_DATA = '1.2.840.113549.1.7.1'
const OID_CONTENT_TYPE = '1.2.840.113549.1.9.3'
const OID_MESSAGE_DIGEST = '1.2.840.113549.1.9.4'
const OID_SIGNING_TIME = '1.2.840.113549.1.9.5'
const DIGEST_OID: Record<SignedDataDigest, string> = { sha256: '2.16.840.1.101.3.4.2.1', sha1: '1.3.14.3.2.26' }
const OID_RSA_ENCRYPTION = '1.2.840.113549.1.1.1'
const OID_DSA_WITH_SHA1 = '1.2.840.10040.4.3'
/** id-dsa, for DSA with SHA-256: Vault's verifier takes only it and dsaWithSHA1 for DSA (docs/reference/fake-cloud.md §3.2). */
const OID_DSA = '1.2.840.10040.4.1'

// A code-loading cache, not emulator state: it spares each signing a `require` lookup (about 10 µs).
let loadedAsn1: Asn1 | undefined

/** jsrsasign's ASN.1 classes, loaded on first signing so that importing doppel stays cheap. */
function loadAsn1(): Asn1 {
  loadedAsn1 ??= (createRequire(import.meta.url)('jsrsasign') as typeof import('jsrsasign')).KJUR.asn1
  return loadedAsn1
}

/** DER of a ContentInfo holding SignedData over `content`, signed at `signingMs` (clamped into the certificate's validity). */
export function buildSignedData(content: Buffer, signer: Signer, digest: SignedDataDigest, signingMs: number): Buffer {
  const asn1 = loadAsn1()
  const oid = (dotted: string) => new asn1.DERObjectIdentifier({ oid: dotted })
  const sequence = (...array: Asn1Object[]) => asObject(new asn1.DERSequence({ array }))
  const setOf = (...array: Asn1Object[]) => asObject(new asn1.DERSet({ array }))
  const octets = (bytes: Buffer) => asObject(new asn1.DEROctetString({ hex: bytes.toString('hex') }))
  const version1 = () => new asn1.DERInteger({ int: 1 })
  const tagged0 = (explicit: boolean, inner: Asn1Object) => {
    const tagged = new asn1.DERTaggedObject()
    tagged.setASN1Object(explicit, 'a0', inner)
    return tagged
  }
  const attribute = (type: string, value: Asn1Object) => sequence(oid(type), setOf(value))
  const digestAlgorithm = () => sequence(oid(DIGEST_OID[digest]), new asn1.DERNull())

  const signingTime = Math.min(Math.max(signingMs, signer.notBeforeMs), signer.notAfterMs)
  // DERSet sorts its members by their encodings: the DER `SET OF` order Go-style verifiers re-create.
  const signedAttributes = setOf(
    attribute(OID_CONTENT_TYPE, oid(OID_DATA)),
    attribute(OID_SIGNING_TIME, derTime(asn1, signingTime)),
    attribute(OID_MESSAGE_DIGEST, octets(createHash(digest).update(content).digest())),
  )
  const signature = sign(digest, Buffer.from(signedAttributes.getEncodedHex(), 'hex'), signer.key)
  const isDsa = signer.key.asymmetricKeyType === 'dsa'
  const signerInfo = sequence(
    version1(),
    sequence(new asn1.ASN1Object({ tlv: signer.issuerHex }), new asn1.DERInteger({ hex: signer.serialHex })),
    digestAlgorithm(),
    tagged0(false, signedAttributes),
    isDsa ? sequence(oid(digest === 'sha1' ? OID_DSA_WITH_SHA1 : OID_DSA)) : sequence(oid(OID_RSA_ENCRYPTION), new asn1.DERNull()),
    octets(signature),
  )
  const signedData = sequence(
    version1(),
    setOf(digestAlgorithm()),
    sequence(oid(OID_DATA), tagged0(true, octets(content))),
    setOf(signerInfo),
  )
  return Buffer.from(sequence(oid(OID_SIGNED_DATA), tagged0(true, signedData)).getEncodedHex(), 'hex')
}

/** The signing time as UTCTime or GeneralizedTime (RFC 5652's rule, `derTimeText`). */
function derTime(asn1: Asn1, ms: number): Asn1Object {
  const { type, str } = derTimeText(ms)
  return type === 'utc' ? new asn1.DERUTCTime({ str }) : new asn1.DERGeneralizedTime({ str })
}
