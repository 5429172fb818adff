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

function buildRequest(signed: SignedCallerIdentityRequest, target: string): Request {
  const headers = new Headers()
  for (const [name, values] of Object.entries(signed.headers)) {
    for (const value of values) {
      try {
        headers.append(name, value)
      } catch {
        // @note A header the HTTP client cannot send is dropped, as a transport would refuse to write it.
      }
    }
  }
  headers.set('host', signed.url.host)
  const body = signed.method === 'POST' ? new TextEncoder().encode(signed.body) : undefined
  if (body) headers.set('content-length', String(body.byteLength))
  if (!headers.has('user-agent')) headers.set('user-agent', 'Go-http-client/1.1')
  if (!headers.has('accept-encoding')) headers.set('accept-encoding', 'gzip')
  try {
    return new Request(target, { method: signed.method, headers, body })
  } catch {
    throw upstream(`error making request: ${signed.method} ${target}: unsupported protocol scheme`)
  }
}
