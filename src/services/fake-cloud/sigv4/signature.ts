import { createHmac, createSecretKey, hash, type KeyObject } from 'node:crypto'

/**
 * The SigV4 signature math (docs/reference/fake-cloud.md §5.1), shared by the verifier and the scenario's request signer.
 */

/**
 * kSigning: the HMAC chain over the scope's date, region and service, keyed by the secret access key.
 * @note Returned as a KeyObject: Node builds one for every HMAC keyed by a Buffer, which costs ~20 µs.
 */
export function deriveSigningKey(secret: string, date: string, region: string, service: string): KeyObject {
  const kDate = createHmac('sha256', `AWS4${secret}`).update(date).digest()
  const kRegion = createHmac('sha256', kDate).update(region).digest()
  const kService = createHmac('sha256', kRegion).update(service).digest()
  return createSecretKey(createHmac('sha256', kService).update('aws4_request').digest())
}

/** The string to sign of a canonical request. */
export function stringToSign(requestTime: string, scope: string, canonicalRequest: string): string {
  return `AWS4-HMAC-SHA256\n${requestTime}\n${scope}\n${hash('sha256', canonicalRequest, 'hex')}`
}

/** The hex signature of a canonical request: HMAC of the string to sign under the signing key. */
export function computeSignature(signingKey: KeyObject, requestTime: string, scope: string, canonicalRequest: string): string {
  return createHmac('sha256', signingKey).update(stringToSign(requestTime, scope, canonicalRequest)).digest('hex')
}
