import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, randomBytes, sign, X509Certificate, type KeyObject } from 'node:crypto'
import { createRequire } from 'node:module'
import { isIP } from 'node:net'
import { domainToASCII } from 'node:url'
import { derTimeText } from '../../core/asn1.ts'

/**
 * A development CA and the server certificates it issues, as `vault server -dev-tls` makes them: ECDSA P-256
 * keys from node:crypto, the certificate structure assembled by jsrsasign (already a dependency, no openssl
 * binary at run time), the signature made by node:crypto. Strict verifiers (Python 3.13's
 * VERIFY_X509_STRICT, Go) ask for the extensions each carries.
 */
export interface PemPair {
  /** PEM certificate (a server's may be followed by the chain). */
  cert: string
  /** PEM private key (PKCS#8). */
  key: string
}

export interface IssuedServerCertificate extends PemPair {
  /** The names and addresses the certificate is valid for. */
  names: string[]
}

/** Names every development certificate covers, as Vault's `-dev-tls` does. */
const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '::1'] as const

const DAY_MS = 86_400_000
/** A development CA outlives any test run; kept in `--data-dir`, it serves restarts for years. */
const CA_DAYS = 10 * 365
/** The server certificate is issued at every start; 397 days is what browsers accept for a leaf. */
const SERVER_DAYS = 397
/** Back-dated a little, for clients whose clock runs behind. */
const SKEW_MS = 3_600_000

type Jsrsasign = typeof import('jsrsasign')
// A code-loading cache, not state: jsrsasign is loaded only by a server that issues certificates.
let loaded: Jsrsasign | undefined
const jsrsasign = (): Jsrsasign => (loaded ??= createRequire(import.meta.url)('jsrsasign') as Jsrsasign)

/** A new self-signed CA. */
export function createCertificateAuthority(nowMs = Date.now()): PemPair {
  const { privateKey, publicKey } = newKeyPair()
  const cert = issue({
    subject: `/O=doppel/CN=doppel development CA ${randomBytes(4).toString('hex')}`,
    publicKey,
    signer: { key: privateKey },
    nowMs,
    days: CA_DAYS,
    extensions: [
      { extname: 'basicConstraints', critical: true, cA: true, pathLen: 0 },
      { extname: 'keyUsage', critical: true, names: ['keyCertSign', 'cRLSign', 'digitalSignature'] },
    ],
  })
  return { cert, key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString() }
}

/** A server certificate for `names` (host names or IP addresses; loopback's always), signed by `ca`. */
export function issueServerCertificate(ca: PemPair, names: readonly string[], nowMs = Date.now()): IssuedServerCertificate {
  const all = [...new Set([...LOOPBACK_NAMES, ...names.flatMap(certificateNames)])]
  const { privateKey, publicKey } = newKeyPair()
  const caCert = new X509Certificate(ca.cert)
  const cert = issue({
    subject: '/O=doppel/CN=localhost',
    publicKey,
    signer: { key: createPrivateKey(ca.key), cert: caCert },
    nowMs,
    days: SERVER_DAYS,
    extensions: [
      { extname: 'basicConstraints', critical: true, cA: false },
      { extname: 'keyUsage', critical: true, names: ['digitalSignature'] },
      { extname: 'extKeyUsage', array: [{ name: 'serverAuth' }] },
      { extname: 'subjectAltName', array: all.map((name) => (isIP(name) ? { ip: name } : { dns: name })) },
    ],
  })
  return { cert, key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), names: all }
}

/**
 * The names a certificate carries for a `--host`/`--allowed-host` value: an address or a host name (in
 * its ASCII form) as is, a leading-dot domain (which admits the domain and its subdomains) as the domain
 * and its wildcard. A wildcard bind address (`0.0.0.0`, `::`) names nothing, nor does a value no client
 * could match (not a host name).
 */
function certificateNames(value: string): string[] {
  const bare = value.replace(/^\[(.*)\]$/, '$1')
  if (isIP(bare)) {
    // In the canonical form (`::ffff:7f00:1`), which the encoder reads: `::0.0.0.0` is `::`.
    const address = isIP(bare) === 4 ? new URL(`http://${bare}`).hostname : new URL(`http://[${bare}]`).hostname.slice(1, -1)
    return address === '0.0.0.0' || address === '::' ? [] : [address]
  }
  const domain = value.startsWith('.')
  const text = (domain ? value.slice(1) : value).toLowerCase()
  if (!/^[a-z0-9_.\-\u0080-\uffff]+$/.test(text)) return []
  const name = domainToASCII(text)
  return !HOST_NAME.test(name) ? [] : domain ? [name, `*.${name}`] : [name]
}

/** A DNS name as certificates carry it: letters, digits, `-` and `_` in dot-separated labels. */
const HOST_NAME = /^[a-z0-9_](?:[a-z0-9_-]{0,62})(?:\.[a-z0-9_](?:[a-z0-9_-]{0,62}))*$/

function newKeyPair(): { privateKey: KeyObject; publicKey: KeyObject } {
  return generateKeyPairSync('ec', { namedCurve: 'P-256' })
}

interface Issue {
  subject: string
  publicKey: KeyObject
  /** The issuer's key, and its certificate unless the certificate signs itself. */
  signer: { key: KeyObject; cert?: X509Certificate }
  nowMs: number
  days: number
  extensions: object[]
}

function issue({ subject, publicKey, signer, nowMs, days, extensions }: Issue): string {
  const { KJUR, KEYUTIL } = jsrsasign()
  const spki = publicKey.export({ type: 'spki', format: 'der' })
  const issuerSpki = signer.cert ? signer.cert.publicKey.export({ type: 'spki', format: 'der' }) : spki
  const notAfter = Math.min(nowMs + days * DAY_MS, signer.cert ? Date.parse(signer.cert.validTo) : Infinity)
  const tbs = new KJUR.asn1.x509.TBSCertificate({
    version: 3,
    // Positive and 16 bytes: RFC 5280 allows up to 20.
    serial: { hex: '01' + randomBytes(15).toString('hex') },
    sigalg: 'SHA256withECDSA',
    issuer: { str: signer.cert ? x500(signer.cert.subject) : subject },
    subject: { str: subject },
    notbefore: derTimeText(nowMs - SKEW_MS),
    notafter: derTimeText(notAfter),
    sbjpubkey: KEYUTIL.getKey(createPublicKey({ key: spki, format: 'der', type: 'spki' }).export({ type: 'spki', format: 'pem' }).toString()),
    ext: [
      ...extensions,
      { extname: 'subjectKeyIdentifier', kid: { hex: keyIdentifier(spki) } },
      { extname: 'authorityKeyIdentifier', kid: { hex: keyIdentifier(issuerSpki) } },
    ],
  } as never)
  const tbsHex = tbs.getEncodedHex()
  const signature = sign('sha256', Buffer.from(tbsHex, 'hex'), signer.key)
  const certificate = new KJUR.asn1.x509.Certificate({ tbsobj: tbs, sigalg: 'SHA256withECDSA', sighex: signature.toString('hex') } as never)
  return certificate.getPEM().replace(/\r\n/g, '\n')
}

/** RFC 5280 §4.2.1.2 method 1: SHA-1 of the subject public key's bits (the DER after the SPKI's algorithm). */
function keyIdentifier(spki: Buffer): string {
  // A P-256 SPKI is 91 bytes: a 26-byte header, then the 65-byte point (the BIT STRING's content after its unused-bits byte).
  return createHash('sha1').update(spki.subarray(spki.length - 65)).digest('hex')
}

/** Node's `subject` text (one `K=V` a line) as jsrsasign's `/K=V/K=V`. */
const x500 = (subject: string): string => '/' + subject.split('\n').join('/')

