import { createHash } from 'node:crypto'
import type { AwsCredentials } from '../glossary.ts'
import { formatBasicIso } from '../../../core/utc-date.ts'
import { canonicalHeaders, canonicalQuery, canonicalUri, pathSegments } from './canonical-request.ts'
import { computeSignature, deriveSigningKey } from './signature.ts'

/** A query-protocol request to sign: a form body POSTed to `url`. */
export interface RequestToSign {
  url: URL
  body: string
  region: string
  service: string
  credentials: AwsCredentials
  nowMs: number
}

/**
 * The headers of a SigV4-signed form POST (Authorization over host, content-type, x-amz-date and the
 * session token), as the provider SDKs sign the calls the auth service makes.
 */
export function signedFormHeaders(request: RequestToSign): Record<string, string> {
  const amzDate = formatBasicIso(request.nowMs)
  const headers: Record<string, string> = {
    'content-type': 'application/x-www-form-urlencoded; charset=utf-8',
    host: request.url.host,
    'x-amz-date': amzDate,
  }
  if (request.credentials.sessionToken) headers['x-amz-security-token'] = request.credentials.sessionToken
  const names = Object.keys(headers).sort()
  const scope = `${amzDate.slice(0, 8)}/${request.region}/${request.service}/aws4_request`
  const path = request.url.pathname
  const canonical = [
    'POST',
    canonicalUri(pathSegments(path), path.endsWith('/')),
    canonicalQuery(request.url.search),
    canonicalHeaders(names, { get: (name) => headers[name] ?? null }, request.url.host),
    names.join(';'),
    createHash('sha256').update(request.body).digest('hex'),
  ].join('\n')
  const key = deriveSigningKey(request.credentials.secretAccessKey, amzDate.slice(0, 8), request.region, request.service)
  const signature = computeSignature(key, amzDate, scope, canonical)
  const { host: _host, ...sent } = headers
  return {
    ...sent,
    authorization: `AWS4-HMAC-SHA256 Credential=${request.credentials.accessKeyId}/${scope}, SignedHeaders=${names.join(';')}, Signature=${signature}`,
  }
}
