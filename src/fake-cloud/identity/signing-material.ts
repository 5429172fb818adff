import { createPrivateKey, X509Certificate, type KeyObject } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { children, readNode } from './der.ts'

/**
 * The fake cloud's TEST-ONLY signers from `certs/` (see certs/README.md), read from disk on first use.
 *
 * @note Cached per process: the files are immutable package contents, and every emulator signs with the same
 * keys, as every EC2 instance of a region does.
 */
export type SignerName = 'rsa2048' | 'pkcs7' | 'signature'

export interface Signer {
  name: SignerName
  key: KeyObject
  certificatePem: string
  /** The certificate's issuer Name and serialNumber INTEGER, as raw DER copied from the certificate. */
  issuerDer: Buffer
  serialDer: Buffer
  notBeforeMs: number
  notAfterMs: number
}

const CERTS_DIR = new URL('../../../certs/', import.meta.url)
const loaded = new Map<SignerName, Signer>()

/** The named signer, read from `certs/` on first use. */
export function getSigner(name: SignerName): Signer {
  let signer = loaded.get(name)
  if (signer === undefined) {
    signer = loadSigner(name)
    loaded.set(name, signer)
  }
  return signer
}

function loadSigner(name: SignerName): Signer {
  const certificatePem = readFileSync(new URL(`${name}.pem`, CERTS_DIR), 'utf8')
  const key = createPrivateKey(readFileSync(new URL(`${name}.key`, CERTS_DIR)))
  const certificate = new X509Certificate(certificatePem)
  const der = certificate.raw
  // Certificate ::= SEQUENCE { tbsCertificate SEQUENCE { [0] version, serialNumber, signature, issuer, … } … }
  const tbs = children(der, readNode(der, 0))[0]!
  const fields = children(der, tbs)
  const first = fields[0]!.tag === 0xa0 ? 1 : 0
  const serial = fields[first]!
  const issuer = fields[first + 2]!
  return {
    name,
    key,
    certificatePem,
    issuerDer: Buffer.from(der.subarray(issuer.start, issuer.end)),
    serialDer: Buffer.from(der.subarray(serial.start, serial.end)),
    notBeforeMs: Date.parse(certificate.validFrom),
    notAfterMs: Date.parse(certificate.validTo),
  }
}
