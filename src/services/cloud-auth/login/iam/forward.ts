import type { RequestContext } from '../../../../core/glossary.ts'
import { isRetryable, journalCall, meetFault, NoAnswer, sendUpstream, UpstreamError } from '../../provider/index.ts'
import { LightRequest } from '../../../../core/light-request.ts'
import { responseExplanation, type Explanation } from '../../../../core/explanation.ts'
import { responseHeader, responseValue } from '../../../../core/light-response.ts'
import { cloudFaultResponse, getFakeCloud, isInProcessEndpoint, type CallerIdentity } from '../../../fake-cloud/index.ts'
import { LoginError } from '../login-error.ts'
import { LOGIN_MESSAGES } from '../login-messages.ts'
import type { SignedCallerIdentityRequest } from './request-validation.ts'
import { parseCallerIdentityResponse, type CallerIdentityResult } from './sts-response.ts'

/**
 * Replays the client's signed request to STS exactly as the real service builds it (docs/reference/cloud-auth.md §5 C):
 * URL = endpoint + "/" + the client URL's request URI (so `//` for `https://sts.amazonaws.com/`), `Host` =
 * the client URL's host, every client header copied, plus what Go's HTTP client adds. The fake cloud answers
 * it in process when the endpoint is its own; otherwise it is a real outgoing request. Retries 429, 5xx
 * (except 501) and connection errors up to `maxRetries` times, then checks the answer: `Content-Type`
 * exactly `text/xml`, status 200, a readable GetCallerIdentityResponse.
 */
export async function forwardCallerIdentity(
  context: RequestContext,
  signed: SignedCallerIdentityRequest,
  inProcess: StsForwarder | undefined = fakeSts(context, signed.endpoint),
): Promise<CallerIdentityResult> {
  const target = `${signed.endpoint}/${signed.url.requestUri}`
  const request = buildRequest(signed, target)
  let answer: StsAnswer
  try {
    answer = inProcess ? await replayInProcess(context, inProcess, request, signed) : await replayUpstream(request, target, signed.maxRetries, context.signal)
  } catch (error) {
    if (error instanceof UpstreamError) throw upstream(LOGIN_MESSAGES.givingUp(signed.method, target, error.attempts))
    throw error
  }
  if (answer.contentType !== 'text/xml') throw upstream(LOGIN_MESSAGES.stsContentType)
  if (answer.status !== 200) {
    // The fake STS in process says why it refused; a real one says only what its body says.
    throw upstream(LOGIN_MESSAGES.stsStatus(answer.status, answer.body)).explain(
      answer.explanation ?? { rule: 'STS GetCallerIdentity', seen: `status ${answer.status} from ${target}` },
    )
  }
  // The fake STS in process hands over the identity its XML was written from: what parsing it gives back.
  const result = answer.identity ?? parseCallerIdentityResponse(answer.body)
  if (!result) throw upstream(LOGIN_MESSAGES.stsParse)
  return result
}

/** STS answering a replayed request in process (the fake cloud's, or a test's). */
export type StsForwarder = (request: Request) => Promise<Response>

/** The fake cloud's STS when the endpoint is its own; else none (a real outgoing request). */
function fakeSts(context: RequestContext, endpoint: string): StsForwarder | undefined {
  if (!isInProcessEndpoint(context.emulator, endpoint)) return undefined
  const cloud = getFakeCloud(context.emulator)
  return (request) => cloud.forwardSts(request)
}

/** What the login reads of STS's answer. */
interface StsAnswer {
  status: number
  contentType: string | null
  body: string
  /** The fake STS's GetCallerIdentity result, when it answered in process. */
  identity?: CallerIdentityResult
  /** Why the fake STS refused, when it answered in process. */
  explanation?: Explanation
}

/**
 * The fake cloud in process, through the emulator's faults and journal as over HTTP; retried without
 * waiting (no network to wait for).
 */
async function replayInProcess(context: RequestContext, forward: StsForwarder, request: Request, signed: SignedCallerIdentityRequest): Promise<StsAnswer> {
  const site = { service: 'sts', url: request.url, method: request.method } as const
  const form = () => (signed.method === 'POST' ? signed.body : '')
  const { maxRetries } = signed
  for (let attempts = 1; ; attempts++) {
    const started = performance.now()
    let response: Response
    try {
      const pending = meetFault(context, site)
      const status = pending && (await pending)
      response = status === undefined ? await forward(request.clone()) : cloudFaultResponse(status)
    } catch (error) {
      if (!(error instanceof NoAnswer)) throw error
      journalCall(context, { site, form, started, status: 0 })
      if (attempts > maxRetries) throw new UpstreamError(request.method, request.url, attempts, error.message)
      continue
    }
    const contentType = responseHeader(response, 'content-type')
    const body = await response.text()
    journalCall(context, { site, form, started, status: response.status, answer: { type: contentType ?? '', text: body } })
    if (!isRetryable(response.status)) {
      const identity = responseValue(response) as CallerIdentity | undefined
      const explanation = responseExplanation(response)
      return { status: response.status, contentType, body, ...(identity && { identity }), ...(explanation && { explanation }) }
    }
    if (attempts > maxRetries) throw new UpstreamError(request.method, request.url, attempts, `status ${response.status}`)
  }
}

/** The real service's backoff between attempts: 500 ms doubling up to 30 s. */
const FORWARD_BACKOFF = { minMs: 500, maxMs: 30_000 }

async function replayUpstream(request: Request, target: string, maxRetries: number, signal: AbortSignal | undefined): Promise<StsAnswer> {
  const body = request.method === 'POST' ? await request.text() : undefined
  const answer = await sendUpstream(target, { method: request.method, headers: request.headers, ...(body !== undefined && { body }) }, { maxRetries, backoff: FORWARD_BACKOFF, ...(signal && { signal }) })
  if (isRetryable(answer.status)) throw new UpstreamError(request.method, target, maxRetries + 1, `status ${answer.status}`)
  return { status: answer.status, contentType: answer.headers.get('content-type'), body: answer.body }
}

function upstream(reason: string): LoginError {
  return new LoginError(LOGIN_MESSAGES.upstream(reason))
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
