import { X509Certificate } from 'node:crypto'
import { decodePem } from './pem-block.ts'

/** A certificate PEM read once, the same way for the certificate endpoint and for login. */
export interface PemCertificate {
  /** Whether `pem.Decode` found a block at all. */
  found: boolean
  /** What follows the block's END line (the endpoint allows nothing; login ignores it, as the real service does). */
  rest: string
  /** The block's bytes as an X.509 certificate; undefined when there is no block or it is no certificate. */
  certificate: X509Certificate | undefined
}

/** The real service's `decodePEMAndParseCertificate`: Go's `pem.Decode`, then the block's bytes as X.509. */
export function readPemCertificate(pem: string): PemCertificate {
  const [block, rest] = decodePem(pem)
  if (!block) return { found: false, rest, certificate: undefined }
  try {
    return { found: true, rest, certificate: new X509Certificate(block.bytes) }
  } catch {
    return { found: true, rest, certificate: undefined }
  }
}
