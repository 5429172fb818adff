import type { Explanation } from '../../../../core/explanation.ts'
import { canonicalHeaderKey } from '../../fields/index.ts'
import { decodeStdBase64 } from '../../../../core/go/go-base64.ts'
import { LoginError } from '../login-error.ts'
import { LOGIN_MESSAGES } from '../login-messages.ts'
import { parseClientUrl, parseGoQuery, type ClientUrl } from './go-url.ts'
import { regionalStsEndpoint } from '../../../fake-cloud/index.ts'
import { DEFAULT_STS_ENDPOINT, regionFromAuthorization } from './sts-endpoint.ts'

/** The client configuration fields the iam login reads (a subset of config/client). */
export interface IamClientSettings {
  sts_endpoint: string
  max_retries: number
  use_sts_region_from_client: boolean
  iam_server_id_header_value: string
  allowed_sts_header_values: string[] | null
}

export interface IamLoginInput {
  method: string
  url: string
  body: string
  /** Canonicalised header names → values (TypeHeader). */
  headers: Record<string, string[]>
}

/** A validated signed request, ready to be replayed to STS. */
export interface SignedCallerIdentityRequest {
  method: 'GET' | 'POST'
  url: ClientUrl
  body: string
  headers: Record<string, string[]>
  endpoint: string
  maxRetries: number
}

/** Headers every caller-identity request may carry (docs/reference/cloud-auth.md §5 B.2), canonical form. */
const DEFAULT_ALLOWED_HEADERS = [
  'X-Amz-Algorithm',
  'X-Amz-Content-Sha256',
  'X-Amz-Credential',
  'X-Amz-Date',
  'X-Amz-Security-Token',
  'X-Amz-Signature',
  'X-Amz-SignedHeaders',
  'X-Amz-Signedheaders',
]

/**
 * @note Presigned GET requests always carry `X-Amz-Expires` (and SDK presigners `X-Amz-User-Agent`);
 * they are allowed as query parameters so presigned logins work with a config/client present.
 */
const DEFAULT_ALLOWED_QUERY_PARAMS = [...DEFAULT_ALLOWED_HEADERS, 'X-Amz-Expires', 'X-Amz-User-Agent']

const DEFAULT_MAX_RETRIES = 3

/**
 * Steps A and B of the iam login (docs/reference/cloud-auth.md §5), in order: method, URL, body, headers, then, only when a
 * config/client exists, the server-id header, the header allow-list and the endpoint choice.
 */
export function validateIamRequest(input: IamLoginInput, config: IamClientSettings | undefined, serverIdHeader: string): SignedCallerIdentityRequest {
  if (input.method === '') throw new LoginError(LOGIN_MESSAGES.missingMethod)
  if (input.method !== 'POST' && input.method !== 'GET') throw new LoginError(LOGIN_MESSAGES.invalidMethod)
  const method = input.method
  if (input.url === '') throw new LoginError(LOGIN_MESSAGES.missingUrl)
  const urlBytes = decodeStdBase64(input.url)
  if (!urlBytes) throw new LoginError(LOGIN_MESSAGES.urlBase64)
  const url = parseClientUrl(urlBytes.toString('utf8'))
  if (!url) throw new LoginError(LOGIN_MESSAGES.urlParse)
  if (method === 'POST' && url.rawQuery !== '') throw new LoginError(LOGIN_MESSAGES.invalidRequest)
  if (method === 'GET') validateGetQuery(url.rawQuery)
  const body = decodeBody(method, input.body)
  if (Object.keys(input.headers).length === 0) throw new LoginError(LOGIN_MESSAGES.missingHeaders)

  let endpoint = DEFAULT_STS_ENDPOINT
  let maxRetries = DEFAULT_MAX_RETRIES
  if (config) {
    if (config.iam_server_id_header_value !== '') {
      const problem = serverIdProblem(method, input.headers, url, config.iam_server_id_header_value, serverIdHeader)
      if (problem) throw new LoginError(LOGIN_MESSAGES.serverIdHeader(serverIdHeader, problem.reason)).explain(problem.explanation)
    }
    checkAllowList(input.headers, url, method, config.allowed_sts_header_values ?? [])
    if (config.sts_endpoint !== '') endpoint = config.sts_endpoint
    if (config.max_retries >= 0) maxRetries = config.max_retries
    if (config.use_sts_region_from_client) {
      const region = regionFromAuthorization(headerValues(input.headers, 'Authorization')[0] ?? '')
      if (region === undefined) throw new LoginError(LOGIN_MESSAGES.regionMissing)
      const regional = regionalStsEndpoint(region)
      if (regional === undefined) throw new LoginError(LOGIN_MESSAGES.regionalEndpoint(region))
      endpoint = regional
    }
  }
  return { method, url, body, headers: input.headers, endpoint, maxRetries }
}

function decodeBody(method: 'GET' | 'POST', encoded: string): string {
  if (encoded === '') {
    if (method === 'POST') throw new LoginError(LOGIN_MESSAGES.missingBody)
    return ''
  }
  const bytes = decodeStdBase64(encoded)
  if (!bytes) throw new LoginError(LOGIN_MESSAGES.bodyBase64)
  const body = bytes.toString('utf8')
  if (method === 'POST') validatePostBody(body)
  return body
}

/** Only `Action=GetCallerIdentity` (once) and `Version` may appear in a POST body. */
function validatePostBody(body: string): void {
  const { values, error } = parseGoQuery(body)
  if (error) throw new LoginError(error)
  for (const [key, list] of values) {
    if (key === 'Action' && list.length === 1 && list[0] === 'GetCallerIdentity') continue
    if (key === 'Version') continue
    throw new LoginError(LOGIN_MESSAGES.bodyInvalid)
  }
}

/**
 * A GET request must name `Action=GetCallerIdentity` exactly once (Vault's path_login.go,
 * validateLoginIamRequestUrl). The query is read as Go's `URL.Query()` reads it, dropping the pairs it cannot
 * parse (one with a `;`), so `Action=GetCallerIdentity;GetSessionToken` is no action at all; other keys are
 * left to STS, as the real method answered.
 */
function validateGetQuery(rawQuery: string): void {
  const action = parseGoQuery(rawQuery).values.get('Action')
  if (!action) throw new LoginError(LOGIN_MESSAGES.queryNoAction)
  if (action.length > 1) throw new LoginError(LOGIN_MESSAGES.queryActions)
  if (action[0] !== 'GetCallerIdentity') throw new LoginError(LOGIN_MESSAGES.queryAction(action[0]!))
}

function headerValues(headers: Record<string, string[]>, name: string): string[] {
  return headers[name] ?? []
}

/** Why the server-id header fails (present, equal, signed), or undefined when it passes. */
function serverIdProblem(
  method: 'GET' | 'POST',
  headers: Record<string, string[]>,
  url: ClientUrl,
  required: string,
  serverIdHeader: string,
): { reason: string; explanation: Explanation } | undefined {
  const rule = `config/client iam_server_id_header_value (header ${serverIdHeader})`
  const key = Object.keys(headers).find((candidate) => candidate.toLowerCase() === serverIdHeader.toLowerCase())
  const provided = key === undefined ? '' : headers[key]!.join(',')
  if (provided === '') {
    const explanation = { rule, seen: `no ${serverIdHeader} in iam_request_headers`, expected: required, hint: `add ${serverIdHeader}: ${required} before signing` }
    return { reason: LOGIN_MESSAGES.serverIdMissing(serverIdHeader), explanation }
  }
  if (provided !== required) return { reason: LOGIN_MESSAGES.serverIdMismatch(required, provided), explanation: { rule, seen: provided, expected: required } }
  const unsigned = (seen: string) => ({
    reason: LOGIN_MESSAGES.serverIdUnsigned,
    explanation: { rule: `signed headers include ${serverIdHeader.toLowerCase()}`, seen, hint: `the signed headers lack ${serverIdHeader}: set it before signing, so that SignedHeaders lists it` },
  })
  let signedHeaders: string
  if (method === 'GET') {
    const signed = parseGoQuery(url.rawQuery).values.get('X-Amz-SignedHeaders')
    if (!signed) return unsigned('no X-Amz-SignedHeaders in the query')
    signedHeaders = signed[0]!
  } else {
    const authorization = headers.Authorization
    if (!authorization) return { reason: LOGIN_MESSAGES.authorizationMissing, explanation: { rule: 'Authorization header', seen: 'absent from iam_request_headers' } }
    // @note Greedy, as in the real service: the text after the last `SignedHeaders=`, up to a comma.
    const match = /.*SignedHeaders=([^,]+)/s.exec(authorization.join(','))
    if (!match) return unsigned('no SignedHeaders in the Authorization header')
    signedHeaders = match[1]!
  }
  return signedHeaders.split(';').includes(serverIdHeader.toLowerCase()) ? undefined : unsigned(`SignedHeaders=${signedHeaders}`)
}

function checkAllowList(headers: Record<string, string[]>, url: ClientUrl, method: 'GET' | 'POST', allowed: string[]): void {
  for (const key of Object.keys(headers).sort()) {
    const canonical = canonicalHeaderKey(key)
    if (canonical.startsWith('X-Amz-') && !DEFAULT_ALLOWED_HEADERS.includes(canonical) && !allowed.includes(canonical)) {
      throw new LoginError(LOGIN_MESSAGES.headerNotAllowed(key))
    }
  }
  if (method !== 'GET') return
  for (const key of [...parseGoQuery(url.rawQuery).values.keys()].sort()) {
    if (key.startsWith('X-Amz-') && !DEFAULT_ALLOWED_QUERY_PARAMS.includes(key) && !allowed.includes(canonicalHeaderKey(key))) {
      throw new LoginError(LOGIN_MESSAGES.queryParamNotAllowed(key))
    }
  }
}
