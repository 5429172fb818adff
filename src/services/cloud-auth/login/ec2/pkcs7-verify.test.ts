import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Asn1Error, encodeDer, parseBer, type Asn1Node } from '../../../../core/asn1.ts'
import { parsePkcs7, Pkcs7Error, verifyPkcs7 } from './pkcs7-verify.ts'
import { parseTrustedCertificate, type TrustedCertificate } from './trusted-certificate.ts'

const DOCUMENT = '{"accountId":"123456789012","imageId":"ami-1","instanceId":"i-1","region":"us-east-1","pendingTime":"2016-11-19T16:32:11Z"}'

let dir: string
let rsa: TrustedCertificate
let dsa: TrustedCertificate
let other: TrustedCertificate
const signed: Record<string, Buffer> = {}

function openssl(...args: string[]): void {
  execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' })
}

function sign(name: string, signer: 'rsa' | 'dsa', ...extra: string[]): void {
  openssl('cms', '-sign', '-binary', '-nodetach', '-nocerts', '-outform', 'DER', '-signer', `${signer}.pem`, '-inkey', `${signer}.key`, '-in', 'doc.json', '-out', `${name}.der`, ...extra)
  signed[name] = readFileSync(join(dir, `${name}.der`))
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'doppel-pkcs7-'))
  writeFileSync(join(dir, 'doc.json'), DOCUMENT)
  openssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'rsa.key', '-out', 'rsa.pem', '-subj', '/C=US/ST=Washington State/O=Doppel Test', '-days', '36500', '-sha256')
  openssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'other.key', '-out', 'other.pem', '-subj', '/C=US/ST=Washington State/O=Doppel Test', '-days', '36500', '-sha256')
  openssl('dsaparam', '-out', 'dsap.pem', '1024')
  openssl('gendsa', '-out', 'dsa.key', 'dsap.pem')
  openssl('req', '-x509', '-new', '-key', 'dsa.key', '-out', 'dsa.pem', '-subj', '/C=US/O=Doppel DSA', '-days', '36500', '-sha1')
  rsa = parseTrustedCertificate(readFileSync(join(dir, 'rsa.pem'), 'utf8'))!
  dsa = parseTrustedCertificate(readFileSync(join(dir, 'dsa.pem'), 'utf8'))!
  other = parseTrustedCertificate(readFileSync(join(dir, 'other.pem'), 'utf8'))!
  sign('rsa256', 'rsa', '-md', 'sha256')
  sign('rsa512', 'rsa', '-md', 'sha512')
  sign('rsa1', 'rsa', '-md', 'sha1')
  sign('rsaNoAttr', 'rsa', '-md', 'sha256', '-noattr')
  sign('rsaBer', 'rsa', '-md', 'sha256', '-stream')
  sign('dsa1', 'dsa', '-md', 'sha1')
  sign('dsa256', 'dsa', '-md', 'sha256')
}, 60_000)

afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** Forgets the cached encodings, so edits to a parsed tree show in its re-encoding. */
function edited(node: Asn1Node): Asn1Node {
  node.der = undefined
  node.children.forEach(edited)
  return node
}

function verify(bytes: Buffer, trusted: TrustedCertificate[], allowSha1 = false): string {
  const data = parsePkcs7(bytes)
  verifyPkcs7(data, { trusted, allowSha1 })
  return data.content.toString('utf8')
}

function refusal(run: () => unknown): string {
  try {
    run()
  } catch (error) {
    if (error instanceof Pkcs7Error || error instanceof Asn1Error) return error.message
    throw error
  }
  throw new Error('expected a refusal')
}

describe('PKCS#7 verification', () => {
  it('verifies RSA signatures with SHA-256 and SHA-512 and returns the embedded document', () => {
    expect(verify(signed.rsa256!, [other, rsa])).toBe(DOCUMENT)
    expect(verify(signed.rsa512!, [rsa])).toBe(DOCUMENT)
  })

  it('verifies without signed attributes (signature over the content)', () => {
    expect(verify(signed.rsaNoAttr!, [rsa])).toBe(DOCUMENT)
  })

  it('accepts BER with indefinite lengths and a constructed content string', () => {
    expect(signed.rsaBer![1]).toBe(0x80)
    expect(verify(signed.rsaBer!, [rsa])).toBe(DOCUMENT)
  })

  it('re-encodes BER as the DER the signature covers', () => {
    const der = encodeDer(parseBer(signed.rsaBer!))
    expect(der[1]).not.toBe(0x80)
    expect(encodeDer(edited(parseBer(der))).equals(der)).toBe(true)
    expect(verify(der, [rsa])).toBe(DOCUMENT)
  })

  it('refuses SHA-1 signatures with the x509 error unless SHA-1 is allowed', () => {
    expect(refusal(() => verify(signed.dsa1!, [dsa]))).toBe(
      'x509: cannot verify signature: insecure algorithm DSA-SHA1 (temporarily override with GODEBUG=x509sha1=1)',
    )
    expect(refusal(() => verify(signed.rsa1!, [rsa]))).toBe(
      'x509: cannot verify signature: insecure algorithm SHA1-RSA (temporarily override with GODEBUG=x509sha1=1)',
    )
    expect(verify(signed.dsa1!, [dsa], true)).toBe(DOCUMENT)
    expect(verify(signed.rsa1!, [rsa], true)).toBe(DOCUMENT)
  })

  it('verifies DSA with SHA-256 without the SHA-1 workaround', () => {
    expect(verify(signed.dsa256!, [dsa])).toBe(DOCUMENT)
  })

  it('refuses a signer whose issuer and serial match no trusted certificate', () => {
    expect(refusal(() => verify(signed.rsa256!, [other, dsa]))).toBe('pkcs7: No certificate for signer')
  })

  it('refuses a tampered document with the digest mismatch error', () => {
    const tampered = Buffer.from(signed.rsa256!)
    const at = tampered.indexOf('ami-1')
    tampered[at + 4] = '2'.charCodeAt(0)
    expect(refusal(() => verify(tampered, [rsa]))).toMatch(/^pkcs7: Message digest mismatch\n\tExpected: [0-9A-F]{64}\n\tActual {2}: [0-9A-F]{64}$/)
  })

  it('refuses a tampered signature', () => {
    const tampered = Buffer.from(signed.rsa256!)
    tampered[tampered.length - 5] = tampered[tampered.length - 5]! ^ 0xff
    expect(refusal(() => verify(tampered, [rsa]))).toBe('crypto/rsa: verification error')
  })

  it('signs over the DER-sorted attribute set: reordering the received attributes changes nothing', () => {
    const root = parseBer(signed.rsa256!)
    const signerInfo = root.children[1]!.children[0]!.children.at(-1)!.children[0]!
    const attributes = signerInfo.children.find((child) => child.identifier[0] === 0xa0)!
    attributes.children.reverse()
    const reordered = encodeDer(edited(root))
    expect(reordered.equals(signed.rsa256!)).toBe(false)
    expect(verify(reordered, [rsa])).toBe(DOCUMENT)
  })

  it('refuses a signing time outside the certificate validity', () => {
    const root = parseBer(signed.rsa256!)
    const signerInfo = root.children[1]!.children[0]!.children.at(-1)!.children[0]!
    const attributes = signerInfo.children.find((child) => child.identifier[0] === 0xa0)!
    const signingTime = attributes.children.find((attribute) => encodeDer(attribute.children[0]!).toString('hex') === '06092a864886f70d010905')!
    signingTime.children[1]!.children[0]!.content = Buffer.from('010101000000Z')
    expect(refusal(() => verify(encodeDer(edited(root)), [rsa]))).toMatch(/^pkcs7: signing time "2001-01-01T00:00:00Z" is outside of certificate validity "\d{4}-.*Z" to "\d{4}-.*Z"$/)
  })

  it('never throws anything but a parse or verify error on random bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
        try {
          verify(Buffer.from(bytes), [rsa])
        } catch (error) {
          expect(error instanceof Asn1Error || error instanceof Pkcs7Error).toBe(true)
        }
      }),
    )
  })

  it('never crashes on truncations and bit flips of a real document', () => {
    const source = signed.rsaBer!
    fc.assert(
      fc.property(fc.nat(source.length - 1), fc.nat(255), fc.boolean(), (at, value, truncate) => {
        const bytes = truncate ? source.subarray(0, at) : Buffer.from(source)
        if (!truncate) bytes[at] = value
        try {
          verify(bytes, [rsa])
        } catch (error) {
          expect(error instanceof Asn1Error || error instanceof Pkcs7Error).toBe(true)
        }
      }),
    )
  })
})
