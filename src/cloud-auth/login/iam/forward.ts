import { LightRequest } from '../../../core/light-request.ts'
import { LoginError } from '../login-error.ts'
import { LOGIN_MESSAGES } from '../messages.ts'
import type { SignedCallerIdentityRequest } from './request-validation.ts'
import { parseCallerIdentityResponse, type CallerIdentityResult } from './sts-response.ts'

/** The provider's STS as the login reaches it: the fake cloud's `forwardSts`, never the network. */
export type StsForwarder = (request: Request) => Promise<Response>

/**
 * Replays the client's signed request to STS exactly as the real service builds it (reference §5 C):
 * URL = endpoint + "/" + the client URL's request URI (so `//` for `https://sts.amazonaws.com/`), `Host` =
 * the client URL's host, every client header copied, plus what Go's HTTP client adds. Retries 429 and 5xx
 * (except 501) up to `maxRetries` times, then checks the answer: `Content-Type` exactly `text/xml`,
 * status 200, a readable GetCallerIdentityResponse.
 */
export async function forwardCallerIdentity(forward: StsForwarder, signed: SignedCallerIdentityRequest): Promise<CallerIdentityResult> {
  const target = `${signed.endpoint}/${signed.url.requestUri}`
  let response: Response | undefined
  let attempts = 0
  while (attempts <= signed.maxRetries) {
    attempts++
    response = await forward(buildRequest(signed, target))
    if (!isRetryable(response.status)) break
    response = undefined
  }
  if (!response) throw upstream(LOGIN_MESSAGES.givingUp(signed.method, target, attempts))
  if (response.headers.get('content-type') !== 'text/xml') throw upstream(LOGIN_MESSAGES.stsContentType)
  const body = await response.text()
  if (response.status !== 200) throw upstream(LOGIN_MESSAGES.stsStatus(response.status, body))
  const result = parseCallerIdentityResponse(body)
  if (!result) throw upstream(LOGIN_MESSAGES.stsParse)
  return result
}

function upstream(reason: string): LoginError {
  return new LoginError(LOGIN_MESSAGES.upstream(reason))
}

function isRetryable(status: number): boolean {
  return status === 429 || (status >= 500 && status !== 501) || status === 0
}

/**
 * What Fetch's `Headers` accepts: a token name, and a byte-string value (trimmed of HTTP whitespace)
 * without NUL, CR or LF.
 */
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/
const HTTP_WHITESPACE = /^[\t\n\r ]+|[\t\n\r ]+$/g
const BAD_VALUE = /[\0\r\n\u0100-\uffff]/

/**
 * The replayed request, as a light Request over a flat header list (the fake STS reads it in process):
 * the same headers a Fetch `Headers` would hold after the appends and sets below.
 */
function buildRequest(signed: SignedCallerIdentityRequest, target: string): Request {
  let url: URL
  try {
    url = new URL(target)
  } catch {
    throw upstream(`error making request: ${signed.method} ${target}: unsupported protocol scheme`)
  }
  if (url.username !== '' || url.password !== '') throw upstream(`error making request: ${signed.method} ${target}: unsupported protocol scheme`)
  const body = signed.method === 'POST' ? Buffer.from(signed.body) : undefined
  const raw: string[] = []
  let userAgent = false
  let acceptEncoding = false
  for (const name in signed.headers) {
    // @note A header the HTTP client cannot send is dropped, as a transport would refuse to write it.
    if (!HEADER_NAME.test(name)) continue
    const lower = name.toLowerCase()
    // Replaced below, as `Headers.set` would.
    if (lower === 'host' || (body && lower === 'content-length')) continue
    for (const value of signed.headers[name]!) {
      const trimmed = value.replace(HTTP_WHITESPACE, '')
      if (BAD_VALUE.test(trimmed)) continue
      raw.push(name, trimmed)
      if (lower === 'user-agent') userAgent = true
      else if (lower === 'accept-encoding') acceptEncoding = true
    }
  }
  raw.push('host', signed.url.host)
  if (body) raw.push('content-length', String(body.byteLength))
  if (!userAgent) raw.push('user-agent', 'Go-http-client/1.1')
  if (!acceptEncoding) raw.push('accept-encoding', 'gzip')
  return new LightRequest(signed.method, url.href, raw, body)
}
