import { createHash } from 'node:crypto'
import { canonicalHeaders, canonicalQuery, computeSignature, deriveSigningKey, encodeRfc3986 } from '../../../services/fake-cloud/index.ts'
import { formatBasicIso } from '../../../core/utc-date.ts'
import { stsHost } from '../../../services/fake-cloud/urls.ts'

/** Credentials as the fake cloud's principals carry them (snake_case, as captured). */
export interface PrincipalCredentials {
  access_key_id: string
  secret_access_key: string
  session_token?: string
}

export interface CallerIdentityOptions {
  credentials: PrincipalCredentials
  /** Signing time: the target's clock. */
  now: Date
  /** Adds this header (signed) with `serverId` as its value. */
  serverIdHeader: string
  serverId?: string
  /** Signs for `sts.<region>.amazonaws.com`; the global endpoint and us-east-1 otherwise. */
  region?: string
  /** The host the request names (and signs); default the endpoint of `region`. */
  host?: string
  /** The credential scope's service (default `sts`). */
  service?: string
  method?: 'POST' | 'GET'
  headers?: Record<string, string>
}

/** The four iam login fields, base64 where the login expects it. */
export interface IamLoginPayload {
  iam_http_request_method: string
  iam_request_url: string
  iam_request_body: string
  iam_request_headers: string
}

const BODY = 'Action=GetCallerIdentity&Version=2011-06-15'

/**
 * Builds an iam login payload: a SigV4-signed `sts:GetCallerIdentity` (POST form body, or GET with a
 * presigned query) as the Vault CLI helper would, with the server-id header signed when given.
 */
export function signedCallerIdentity(options: CallerIdentityOptions): IamLoginPayload {
  const { credentials } = options
  if (typeof credentials?.access_key_id !== 'string' || typeof credentials.secret_access_key !== 'string') {
    throw new TypeError('Failed to sign GetCallerIdentity: the principal needs access_key_id and secret_access_key')
  }
  const method = options.method ?? 'POST'
  const region = options.region ?? 'us-east-1'
  const host = options.host ?? stsHost(options.region || undefined)
  const amzDate = formatBasicIso(options.now.getTime())
  const service = options.service ?? 'sts'
  const scope = `${amzDate.slice(0, 8)}/${region}/${service}/aws4_request`
  const headers: Record<string, string> = { Host: host }
  if (options.serverId !== undefined) headers[options.serverIdHeader] = options.serverId
  Object.assign(headers, options.headers)

  const query: [string, string][] = []
  let body = ''
  if (method === 'POST') {
    body = BODY
    headers['Content-Type'] = 'application/x-www-form-urlencoded; charset=utf-8'
    headers['X-Amz-Date'] = amzDate
    if (credentials.session_token) headers['X-Amz-Security-Token'] = credentials.session_token
  } else {
    query.push(['Action', 'GetCallerIdentity'], ['Version', '2011-06-15'], ['X-Amz-Algorithm', 'AWS4-HMAC-SHA256'])
    query.push(['X-Amz-Credential', `${credentials.access_key_id}/${scope}`], ['X-Amz-Date', amzDate])
    if (credentials.session_token) query.push(['X-Amz-Security-Token', credentials.session_token])
  }
  const names = Object.keys(headers)
    .map((name) => name.toLowerCase())
    .sort()
  const signedHeaders = names.join(';')
  if (method === 'GET') query.push(['X-Amz-SignedHeaders', signedHeaders])
  const lower = new Map(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]))
  const sortedQuery = canonicalQuery(query.map(([name, value]) => `${encodeRfc3986(name)}=${encodeRfc3986(value)}`).join('&'))
  const canonicalRequest = [method, '/', sortedQuery, canonicalHeaders(names, { get: (name) => lower.get(name) ?? null }, host), signedHeaders, sha256(body)].join('\n')
  const signature = computeSignature(deriveSigningKey(credentials.secret_access_key, amzDate.slice(0, 8), region, service), amzDate, scope, canonicalRequest)

  let url = `https://${host}/`
  const sent: Record<string, string[]> = {}
  for (const [name, value] of Object.entries(headers)) if (name !== 'Host' || method === 'GET') sent[name] = [value]
  if (method === 'POST') {
    sent.Authorization = [`AWS4-HMAC-SHA256 Credential=${credentials.access_key_id}/${scope}, SignedHeaders=${signedHeaders}, Signature=${signature}`]
  } else {
    url += `?${sortedQuery}&X-Amz-Signature=${signature}`
  }
  return {
    iam_http_request_method: method,
    iam_request_url: Buffer.from(url).toString('base64'),
    iam_request_body: Buffer.from(body).toString('base64'),
    iam_request_headers: Buffer.from(JSON.stringify(sent)).toString('base64'),
  }
}

function sha256(data: string): string {
  return createHash('sha256').update(data, 'utf8').digest('hex')
}
