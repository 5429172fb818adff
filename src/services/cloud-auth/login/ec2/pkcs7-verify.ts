import { hash as hashOf, verify as verifySignature, X509Certificate } from 'node:crypto'
import { goQuote } from '../../../../core/go/go-format.ts'
import { LOGIN_MESSAGES } from '../login-messages.ts'
import { Asn1Error, encodeDer, encodeTlv, oidReader, parseBer, viewOf, readIntegerHex, requireInteger, readTime, requireTag, stringBytes, TAG, tagOf, type Asn1Node } from '../../../../core/asn1.ts'
import type { TrustedCertificate } from './trusted-certificate.ts'
import { errorKind } from '../../../../core/doppel-error.ts'
import { isoSeconds } from '../../../../core/utc-date.ts'
import { sha1Refusal, unknownSigner } from './identity-signature.ts'

/**
 * PKCS#7 SignedData as the real service checks an instance identity document
 * (docs/reference/fake-cloud.md §3.2): BER-tolerant parse, embedded certificates ignored, every signer found by issuer + serial among
 * the trusted certificates, messageDigest and signingTime checked, the signature verified over the
 * signed attributes re-encoded as a DER SET OF (sorted).
 */

/** A refusal from the PKCS#7 check, with the library's message (the caller adds the service's prefix). */
export class Pkcs7Error extends errorKind('Pkcs7Error', 'DOPPEL_INVALID_PKCS7') {}

interface SignerInfo {
  issuer: Buffer
  serialHex: string
  digestOid: string
  /** Each signed attribute's DER, in received order; undefined when the signer has none. */
  signedAttributes: { oid: string; der: Buffer; values: Asn1Node[] }[] | undefined
  /** The received `[0]` holding them, when its bytes are DER. */
  signedAttributesDer: Uint8Array | undefined
  encryptionOid: string
  signature: Buffer
}

export interface SignedData {
  content: Buffer
  signers: SignerInfo[]
}

const OID = {
  signedData: '1.2.840.113549.1.7.2',
  /** The content and attribute types a signer's document carries: only read, never looked up. */
  data: '1.2.840.113549.1.7.1',
  contentType: '1.2.840.113549.1.9.3',
  messageDigest: '1.2.840.113549.1.9.4',
  signingTime: '1.2.840.113549.1.9.5',
}

const HASHES: Record<string, string> = {
  '1.3.14.3.2.26': 'sha1',
  '2.16.840.1.101.3.4.2.4': 'sha224',
  '2.16.840.1.101.3.4.2.1': 'sha256',
  '2.16.840.1.101.3.4.2.2': 'sha384',
  '2.16.840.1.101.3.4.2.3': 'sha512',
}

type KeyKind = 'rsa' | 'dsa' | 'ec'

const ENCRYPTION_KINDS: Record<string, KeyKind> = {
  '1.2.840.113549.1.1.1': 'rsa',
  '1.2.840.113549.1.1.5': 'rsa',
  '1.2.840.113549.1.1.11': 'rsa',
  '1.2.840.113549.1.1.12': 'rsa',
  '1.2.840.113549.1.1.13': 'rsa',
  '1.2.840.10040.4.1': 'dsa',
  '1.2.840.10040.4.3': 'dsa',
  '2.16.840.1.101.3.4.3.2': 'dsa',
  '1.2.840.10045.2.1': 'ec',
  '1.2.840.10045.4.1': 'ec',
  '1.2.840.10045.4.3.2': 'ec',
  '1.2.840.10045.4.3.3': 'ec',
  '1.2.840.10045.4.3.4': 'ec',
}

/** Go's x509.SignatureAlgorithm names for the combinations the library supports. */
const ALGORITHM_NAMES: Record<string, string> = {
  'rsa/sha1': 'SHA1-RSA',
  'rsa/sha256': 'SHA256-RSA',
  'rsa/sha384': 'SHA384-RSA',
  'rsa/sha512': 'SHA512-RSA',
  'dsa/sha1': 'DSA-SHA1',
  'dsa/sha256': 'DSA-SHA256',
  'ec/sha1': 'ECDSA-SHA1',
  'ec/sha256': 'ECDSA-SHA256',
  'ec/sha384': 'ECDSA-SHA384',
  'ec/sha512': 'ECDSA-SHA512',
}

const GO_KEY_TYPES: Record<string, string> = { rsa: '*rsa.PublicKey', dsa: '*dsa.PublicKey', ec: '*ecdsa.PublicKey' }
const KEY_NAMES: Record<KeyKind, string> = { rsa: 'RSA', dsa: 'DSA', ec: 'ECDSA' }
const FAILURES: Record<KeyKind, string> = {
  rsa: 'crypto/rsa: verification error',
  dsa: 'x509: DSA verification failure',
  ec: 'x509: ECDSA verification failure',
}

/** Each identifier here is read as the very string the tables above hold. */
const readOid = oidReader([...Object.values(OID), ...Object.keys(HASHES), ...Object.keys(ENCRYPTION_KINDS)])

/** Parses DER or BER ContentInfo holding SignedData. Throws Asn1Error with the parser's message. */
export function parsePkcs7(bytes: Uint8Array): SignedData {
  const info = requireTag(parseBer(bytes), TAG.SEQUENCE, 'ContentInfo').children
  if (readOid(info[0], 'contentType') !== OID.signedData) throw new Asn1Error('pkcs7: cannot parse data: unimplemented content type')
  const explicit = info[1]
  if (!explicit || tagOf(explicit) !== 0xa0 || explicit.children.length === 0) throw new Asn1Error('asn1: syntax error: sequence truncated')
  const fields = requireTag(explicit.children[0], TAG.SEQUENCE, 'SignedData').children
  let index = 0
  requireInteger(fields[index++], 'version')
  requireTag(fields[index++], TAG.SET, 'digestAlgorithms')
  const encapsulated = requireTag(fields[index++], TAG.SEQUENCE, 'contentInfo').children
  readOid(encapsulated[0], 'eContentType')
  const content = readContent(encapsulated[1])
  if (fields[index] && tagOf(fields[index]!) === 0xa0) {
    for (const certificate of fields[index]!.children) {
      try {
        new X509Certificate(encodeDer(certificate))
      } catch {
        throw new Asn1Error('x509: malformed certificate')
      }
    }
    index++
  }
  if (fields[index] && tagOf(fields[index]!) === 0xa1) index++
  const signerSet = requireTag(fields[index], TAG.SET, 'signerInfos')
  return { content, signers: signerSet.children.map(readSignerInfo) }
}

function readContent(explicit: Asn1Node | undefined): Buffer {
  if (!explicit) return Buffer.alloc(0)
  if (tagOf(explicit) !== 0xa0) throw new Asn1Error("asn1: structure error: tags don't match (eContent)")
  const inner = explicit.children[0]
  if (!inner) return Buffer.alloc(0)
  if (inner.constructed && tagOf(inner) === 0x24) return stringBytes(inner)
  if (inner.constructed) return Buffer.concat(inner.children.map((child) => encodeDer(child)))
  return viewOf(inner.content)
}

function readSignerInfo(node: Asn1Node): SignerInfo {
  const fields = requireTag(node, TAG.SEQUENCE, 'SignerInfo').children
  let index = 0
  requireInteger(fields[index++], 'version')
  const issuerAndSerial = requireTag(fields[index++], TAG.SEQUENCE, 'issuerAndSerialNumber').children
  const issuer = requireTag(issuerAndSerial[0], TAG.SEQUENCE, 'issuer')
  const serialHex = readIntegerHex(issuerAndSerial[1], 'serialNumber')
  const digestOid = readOid(requireTag(fields[index++], TAG.SEQUENCE, 'digestAlgorithm').children[0], 'digestAlgorithm')
  let signedAttributes: SignerInfo['signedAttributes']
  let signedAttributesDer: Uint8Array | undefined
  if (fields[index] && tagOf(fields[index]!) === 0xa0) {
    signedAttributesDer = fields[index]!.der
    signedAttributes = fields[index++]!.children.map((attribute) => {
      const parts = requireTag(attribute, TAG.SEQUENCE, 'attribute').children
      return { oid: readOid(parts[0], 'attribute type'), der: encodeDer(attribute), values: requireTag(parts[1], TAG.SET, 'attribute values').children }
    })
  }
  const encryptionOid = readOid(requireTag(fields[index++], TAG.SEQUENCE, 'digestEncryptionAlgorithm').children[0], 'digestEncryptionAlgorithm')
  const signature = stringBytes(requireTag(fields[index], TAG.OCTET_STRING, 'encryptedDigest'))
  return { issuer: encodeDer(issuer), serialHex, digestOid, signedAttributes, signedAttributesDer, encryptionOid, signature }
}

export interface Pkcs7VerifyOptions {
  trusted: readonly TrustedCertificate[]
  /** Accept SHA-1-based signatures (`allowSha1`, the GODEBUG=x509sha1=1 workaround, or the vault profile). */
  allowSha1: boolean
}

/** Verifies every signer against the trusted certificates. Throws Pkcs7Error with the library's message. */
export function verifyPkcs7(signed: SignedData, options: Pkcs7VerifyOptions): void {
  if (signed.signers.length === 0) throw new Pkcs7Error('pkcs7: Message has no signers')
  for (const signer of signed.signers) verifySigner(signed.content, signer, options)
}

function verifySigner(content: Buffer, signer: SignerInfo, options: Pkcs7VerifyOptions): void {
  const certificate = options.trusted.find((candidate) => candidate.serialHex === signer.serialHex && candidate.rawIssuer.equals(signer.issuer))
  if (!certificate) throw new Pkcs7Error('pkcs7: No certificate for signer').explain(unknownSigner(options.trusted.length, 'pkcs7'))
  let signedBytes = content
  if (signer.signedAttributes && signer.signedAttributes.length > 0) {
    const digest = attributeValue(signer.signedAttributes, OID.messageDigest)
    if (!digest) throw new Pkcs7Error('pkcs7: attribute type not in attributes')
    if (tagOf(digest) !== TAG.OCTET_STRING) throw new Pkcs7Error("asn1: structure error: tags don't match (messageDigest)")
    const hash = HASHES[signer.digestOid]
    if (!hash) throw new Pkcs7Error('pkcs7: cannot decrypt data: only RSA, DES, DES-EDE3, AES-256-CBC and AES-128-GCM supported')
    const expected = stringBytes(digest)
    const actual = hashOf(hash, content, 'buffer')
    if (!expected.equals(actual)) {
      throw new Pkcs7Error(`pkcs7: Message digest mismatch\n\tExpected: ${hex(expected)}\n\tActual  : ${hex(actual)}`)
    }
    signedBytes = signedAttributeSet(signer.signedAttributesDer, signer.signedAttributes.map((attribute) => attribute.der))
    checkSigningTime(signer.signedAttributes, certificate)
  }
  const hash = HASHES[signer.digestOid]
  const kind = ENCRYPTION_KINDS[signer.encryptionOid]
  const algorithm = kind && hash ? ALGORITHM_NAMES[`${kind}/${hash}`] : undefined
  if (!kind) throw new Pkcs7Error(`pkcs7: unsupported algorithm ${goQuote(signer.encryptionOid)}`)
  if (!hash || !algorithm) {
    throw new Pkcs7Error(`pkcs7: unsupported digest ${goQuote(signer.digestOid)} for encryption algorithm ${goQuote(signer.encryptionOid)}`)
  }
  if (hash === 'sha1' && !options.allowSha1) throw new Pkcs7Error(LOGIN_MESSAGES.insecureAlgorithm(algorithm)).explain(sha1Refusal(algorithm))
  const keyType = certificate.publicKey.asymmetricKeyType ?? ''
  if (keyType !== kind) {
    throw new Pkcs7Error(`x509: signature algorithm specifies an ${KEY_NAMES[kind]} public key, but have public key of type ${GO_KEY_TYPES[keyType] ?? keyType}`)
  }
  if (!safeVerify(hash, signedBytes, certificate, signer.signature)) throw new Pkcs7Error(FAILURES[kind])
}

function safeVerify(hash: string, data: Buffer, certificate: TrustedCertificate, signature: Buffer): boolean {
  try {
    return verifySignature(hash, data, certificate.publicKey, signature)
  } catch {
    return false
  }
}

function attributeValue(attributes: NonNullable<SignerInfo['signedAttributes']>, oid: string): Asn1Node | undefined {
  return attributes.find((attribute) => attribute.oid === oid)?.values[0]
}

/**
 * The signed attributes as Go re-marshals them: a DER SET OF, members sorted by their encodings. A received
 * `[0]` that is DER with its members in that order already is that SET OF but for its tag (a signer's usual
 * case): it is copied with the tag changed instead of being rebuilt.
 */
function signedAttributeSet(received: Uint8Array | undefined, attributes: Buffer[]): Buffer {
  if (received !== undefined && attributes.every((attribute, i) => i === 0 || Buffer.compare(attributes[i - 1]!, attribute) <= 0)) {
    const set = Buffer.from(received)
    set[0] = TAG.SET
    return set
  }
  return encodeTlv(SET_IDENTIFIER, Buffer.concat(attributes.sort(Buffer.compare)))
}

const SET_IDENTIFIER = Uint8Array.of(TAG.SET)

function checkSigningTime(attributes: NonNullable<SignerInfo['signedAttributes']>, certificate: TrustedCertificate): void {
  const value = attributeValue(attributes, OID.signingTime)
  if (!value) return
  let signingTime: number
  try {
    signingTime = readTime(value, 'signingTime')
  } catch {
    // @note The library only checks a signing time it can decode; an undecodable one is skipped.
    return
  }
  if (signingTime > certificate.notAfter || signingTime < certificate.notBefore) {
    throw new Pkcs7Error(
      `pkcs7: signing time ${goQuote(isoSeconds(signingTime))} is outside of certificate validity ${goQuote(isoSeconds(certificate.notBefore))} to ${goQuote(isoSeconds(certificate.notAfter))}`,
    )
  }
}

function hex(bytes: Buffer): string {
  return bytes.toString('hex').toUpperCase()
}
