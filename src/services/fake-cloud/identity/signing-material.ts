import { createPrivateKey, X509Certificate, type KeyObject } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { packageFile } from '../../../core/package-files.ts'
import { encodeDer, parseBer, tagOf } from '../../../core/asn1.ts'

/**
 * The fake cloud's TEST-ONLY signers from `certs/` (see certs/README.md), read from disk on first use.
 *
 * @note Cached per process: the files are immutable package contents, and every emulator signs with the same
 * keys, as every EC2 instance of a region does.
 */
export type SignerName = 'rsa2048' | 'pkcs7' | 'signature' | 'dsa2048'

export interface Signer {
  name: SignerName
  key: KeyObject
  certificatePem: string
  /** The certificate's issuer Name as hex of its raw DER, copied byte for byte from the certificate. */
  issuerHex: string
  /** The content octets of the certificate's serialNumber INTEGER, as hex. */
  serialHex: string
  notBeforeMs: number
  notAfterMs: number
}

const CERTS_DIR = packageFile('certs')
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
  const certificatePem = readFileSync(join(CERTS_DIR, `${name}.pem`), 'utf8')
  const key = createPrivateKey(readFileSync(join(CERTS_DIR, `${name}.key`)))
  const certificate = new X509Certificate(certificatePem)
  // Certificate ::= SEQUENCE { tbsCertificate SEQUENCE { [0] version, serialNumber, signature, issuer, … } … }
  const fields = parseBer(certificate.raw).children[0]!.children
  const first = tagOf(fields[0]!) === 0xa0 ? 1 : 0
  return {
    name,
    key,
    certificatePem,
    issuerHex: encodeDer(fields[first + 2]!).toString('hex'),
    serialHex: Buffer.from(fields[first]!.content).toString('hex'),
    notBeforeMs: Date.parse(certificate.validFrom),
    notAfterMs: Date.parse(certificate.validTo),
  }
}
