import { execFileSync } from 'node:child_process'
import { verify, X509Certificate } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import jsrsasign from 'jsrsasign'
import { afterAll, beforeEach, describe, expect, it } from 'vitest'
import { createDoppel } from '../../src/features/doppel/index.ts'
import { getFakeCloud } from '../../src/services/fake-cloud/index.ts'

// Signed identity documents checked from the outside: the openssl CLI, and a jsrsasign parse of the DER.
const { ASN1HEX, X509 } = jsrsasign
const CERTS = new URL('../../certs/', import.meta.url)
const certPath = (name: string) => new URL(`${name}.pem`, CERTS).pathname
const work = mkdtempSync(join(tmpdir(), 'doppel-identity-'))
afterAll(() => rmSync(work, { recursive: true, force: true }))

const doppel = createDoppel({ seed: 3, clock: { start: '2024-03-05T09:41:27Z', frozen: true } })
const cloud = getFakeCloud(doppel)
let instanceId: string
beforeEach(async () => {
  await doppel.reset()
  instanceId = cloud.createInstance({ region: 'us-west-2', tags: { Name: 'web' } }).instance_id
})

/** A value as the metadata address serves it (MSW mode, in process). */
async function fromImds(format: string): Promise<string> {
  const response = await doppel.fetch(`http://169.254.169.254/latest/dynamic/instance-identity/${format}`)
  expect(response.status).toBe(200)
  return response.text()
}

/** `openssl cms -verify` of a served pkcs7/rsa2048 value, as AWS documents it; the content on success. */
function opensslVerify(value: string, cert: string): { ok: boolean; content: string } {
  const file = join(work, 'doc.p7')
  writeFileSync(file, `-----BEGIN PKCS7-----\n${value}\n-----END PKCS7-----\n`)
  try {
    const content = execFileSync('openssl', ['cms', '-verify', '-inform', 'PEM', '-in', file, '-certfile', cert, '-noverify'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    return { ok: true, content: content.toString('utf8') }
  } catch {
    return { ok: false, content: '' }
  }
}

/** The hex index of a nested element, by child positions (no tag check). */
const indexAt = (hex: string, start: number, path: number[]) => ASN1HEX.getIdxbyList(hex, start, path, undefined!)

/** The parts of a served SignedData, found with jsrsasign's ASN.1 reader. */
function dissect(value: string) {
  const hex = Buffer.from(value.replace(/\n/g, ''), 'base64').toString('hex')
  const signedData = indexAt(hex, 0, [1, 0])
  const parts = ASN1HEX.getChildIdx(hex, signedData)
  const signerInfo = ASN1HEX.getChildIdx(hex, ASN1HEX.getChildIdx(hex, parts[parts.length - 1]!)[0]!)
  const issuerAndSerial = ASN1HEX.getChildIdx(hex, signerInfo[1]!)
  const signedAttrs = signerInfo[3]!
  return {
    hex,
    partCount: parts.length,
    content: Buffer.from(ASN1HEX.getV(hex, indexAt(hex, parts[2]!, [1, 0])), 'hex').toString('utf8'),
    issuerHex: ASN1HEX.getTLV(hex, issuerAndSerial[0]!),
    serialHex: ASN1HEX.getV(hex, issuerAndSerial[1]!),
    attributesTag: hex.slice(signedAttrs, signedAttrs + 2),
    attributeMembers: ASN1HEX.getChildIdx(hex, signedAttrs).map((i) => ASN1HEX.getTLV(hex, i)),
    attributeTypes: ASN1HEX.getChildIdx(hex, signedAttrs).map((i) => ASN1HEX.hextooidstr(ASN1HEX.getV(hex, ASN1HEX.getChildIdx(hex, i)[0]!))),
    signatureAlgorithm: ASN1HEX.hextooidstr(ASN1HEX.getV(hex, indexAt(hex, signerInfo[4]!, [0]))),
    signature: Buffer.from(ASN1HEX.getV(hex, signerInfo[5]!), 'hex'),
  }
}

describe('pkcs7 and rsa2048', () => {
  for (const [format, cert, digest, algorithm] of [
    ['rsa2048', 'rsa2048', 'sha256', '1.2.840.113549.1.1.1'],
    ['pkcs7', 'pkcs7', 'sha1', '1.2.840.10040.4.3'],
    ['dsa2048', 'dsa2048', 'sha256', '1.2.840.10040.4.1'],
  ] as const) {
    it(`${format}: from the IMDS, openssl cms -verify against certs/${cert}.pem gives the document bytes; a tampered one fails`, async () => {
      const value = await fromImds(format)
      const document = await fromImds('document')
      expect(value).toBe(cloud.identityDocument(instanceId, format))
      expect(opensslVerify(value, certPath(cert))).toEqual({ ok: true, content: document })

      const der = Buffer.from(value.replace(/\n/g, ''), 'base64')
      const at = der.indexOf(Buffer.from('us-west-2'))
      expect(at).toBeGreaterThan(0)
      der.write('us-east-2', at)
      const tampered = der.toString('base64').replace(/(.{76})(?=.)/g, '$1\n')
      expect(opensslVerify(tampered, certPath(cert)).ok).toBe(false)
      expect(opensslVerify(value, certPath(cert === 'rsa2048' ? 'pkcs7' : 'rsa2048')).ok).toBe(false)
    })

    it(`${format}: signed attributes in DER SET OF order, issuer and serial copied from the certificate, no certificates`, () => {
      const parts = dissect(cloud.identityDocument(instanceId, format))
      const certificate = new X509()
      certificate.readCertPEM(readFileSync(certPath(cert), 'utf8'))
      expect(parts.issuerHex).toBe(certificate.getIssuerHex())
      expect(parts.serialHex.replace(/^00/, '')).toBe(certificate.getSerialNumberHex().replace(/^00/, ''))
      expect(parts.partCount).toBe(4)
      expect(parts.attributesTag).toBe('a0')
      expect(parts.attributeTypes).toEqual(['1.2.840.113549.1.9.3', '1.2.840.113549.1.9.5', '1.2.840.113549.1.9.4'])
      expect(parts.signatureAlgorithm).toBe(algorithm)

      // What a Go-style verifier does: re-encode the attributes as a universal SET sorted into DER order, then verify.
      const resorted = [...parts.attributeMembers].sort()
      expect(resorted).toEqual(parts.attributeMembers)
      const members = Buffer.from(resorted.join(''), 'hex')
      const setOf = Buffer.concat([Buffer.from([0x31]), derLength(members.length), members])
      const publicKey = new X509Certificate(readFileSync(certPath(cert))).publicKey
      expect(verify(digest, setOf, publicKey, parts.signature)).toBe(true)
      const shuffled = Buffer.from([...resorted].reverse().join(''), 'hex')
      expect(verify(digest, Buffer.concat([Buffer.from([0x31]), derLength(shuffled.length), shuffled]), publicKey, parts.signature)).toBe(false)
    })
  }
})

describe('dsa2048', () => {
  it('is signed with a DSA key of 2048 bits (256-bit q) under a dsa_with_SHA256 certificate, listed last as real IMDS does', async () => {
    const certificate = new X509Certificate(readFileSync(certPath('dsa2048')))
    expect(certificate.publicKey.asymmetricKeyType).toBe('dsa')
    expect(certificate.publicKey.asymmetricKeyDetails).toMatchObject({ modulusLength: 2048, divisorLength: 256 })
    expect(execFileSync('openssl', ['x509', '-in', certPath('dsa2048'), '-noout', '-text']).toString()).toContain('Signature Algorithm: dsa_with_SHA256')
    expect((await fromImds('')).split('\n')).toEqual(['rsa2048', 'pkcs7', 'document', 'signature', 'dsa2048'])
  })
})

describe('signature and document', () => {
  it('signature is RSA-SHA256 over the exact document bytes under certs/signature.pem, which is itself SHA-1-signed', () => {
    const document = cloud.identityDocument(instanceId, 'document')
    const signature = cloud.identityDocument(instanceId, 'signature')
    const certificate = new X509Certificate(readFileSync(certPath('signature')))
    expect(verify('sha256', Buffer.from(document), certificate.publicKey, Buffer.from(signature, 'base64'))).toBe(true)
    expect(verify('sha256', Buffer.from(document + ' '), certificate.publicKey, Buffer.from(signature, 'base64'))).toBe(false)
    const text = execFileSync('openssl', ['x509', '-in', certPath('signature'), '-noout', '-text']).toString()
    expect(text).toContain('Signature Algorithm: sha1WithRSAEncryption')

    writeFileSync(join(work, 'document'), document)
    writeFileSync(join(work, 'signature.bin'), Buffer.from(signature, 'base64'))
    writeFileSync(join(work, 'signature.pub'), certificate.publicKey.export({ type: 'spki', format: 'pem' }))
    const out = execFileSync('openssl', ['dgst', '-sha256', '-verify', join(work, 'signature.pub'), '-signature', join(work, 'signature.bin'), join(work, 'document')])
    expect(out.toString().trim()).toBe('Verified OK')
  })

  it('document has every field, AWS byte format, and the same bytes as inside pkcs7 and rsa2048', () => {
    const instance = cloud.getInstance(instanceId)!
    const document = cloud.identityDocument(instanceId, 'document')
    expect(document).toMatch(/^\{\n( {2}"\w+" : .+,\n)+ {2}"version" : "2017-09-30"\n\}$/)
    expect(JSON.parse(document)).toEqual({
      accountId: '123456789012',
      architecture: 'x86_64',
      availabilityZone: instance.availability_zone,
      billingProducts: null,
      devpayProductCodes: null,
      marketplaceProductCodes: null,
      imageId: instance.ami_id,
      instanceId,
      instanceType: 't3.micro',
      kernelId: null,
      pendingTime: '2024-03-05T09:41:27Z',
      privateIp: instance.private_ip,
      ramdiskId: null,
      region: 'us-west-2',
      version: '2017-09-30',
    })
    for (const format of ['pkcs7', 'rsa2048', 'dsa2048'] as const) expect(dissect(cloud.identityDocument(instanceId, format)).content).toBe(document)
  })

  it('base64 values are wrapped at 76 columns with no trailing newline', () => {
    for (const format of ['pkcs7', 'rsa2048', 'signature', 'dsa2048'] as const) {
      const lines = cloud.identityDocument(instanceId, format).split('\n')
      expect(lines.length).toBeGreaterThan(1)
      expect(lines.slice(0, -1).every((line) => line.length === 76)).toBe(true)
      expect(lines.at(-1)!.length).toBeGreaterThan(0)
      expect(lines.at(-1)!.length).toBeLessThanOrEqual(76)
    }
  })

  it('signatures stay the same until pending_time moves (stop, start), then cover the new document', () => {
    const first = cloud.identityDocument(instanceId, 'rsa2048')
    doppel.clock.advance('10m')
    expect(cloud.identityDocument(instanceId, 'rsa2048')).toBe(first)
    cloud.setInstanceState(instanceId, 'stopped')
    expect(cloud.identityDocument(instanceId, 'rsa2048')).toBe(first)
    cloud.setInstanceState(instanceId, 'running')
    const second = cloud.identityDocument(instanceId, 'rsa2048')
    expect(second).not.toBe(first)
    expect(JSON.parse(dissect(second).content).pendingTime).toBe('2024-03-05T09:51:27Z')
    expect(opensslVerify(second, certPath('rsa2048')).ok).toBe(true)
  })

  it('builtInCertificates lists the signers by the type the auth service registers them as', () => {
    const builtIn = cloud.builtInCertificates()
    const subjects = (pems: string[]) => pems.map((pem) => new X509Certificate(pem).subject.split('\n').at(-1))
    expect(subjects(builtIn.pkcs7)).toEqual(['CN=rsa2048 TEST-ONLY', 'CN=pkcs7 TEST-ONLY'])
    expect(subjects(builtIn.identity)).toEqual(['CN=signature TEST-ONLY'])
  })

  it('an unknown instance or format is a CloudError, as the HTTP API answers', () => {
    expect(() => cloud.identityDocument('i-0123456789abcdef0', 'pkcs7')).toThrow(
      expect.objectContaining({ code: 'InvalidInstanceID.NotFound', status: 400, message: "The instance ID 'i-0123456789abcdef0' does not exist" }),
    )
    expect(() => cloud.identityDocument(instanceId, 'ecdsa384' as 'pkcs7')).toThrow(expect.objectContaining({ status: 400 }))
  })
})

function derLength(length: number): Buffer {
  if (length < 0x80) return Buffer.from([length])
  return length < 0x100 ? Buffer.from([0x81, length]) : Buffer.from([0x82, length >> 8, length & 0xff])
}
