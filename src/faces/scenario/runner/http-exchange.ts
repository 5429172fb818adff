import type { Observed, RequestSummary } from '../glossary.ts'
import type { TargetInfo } from '../targets/target.ts'
import { requestService } from './plan.ts'

/** A `request` step's arguments after templating. */
export interface RequestArgs {
  method?: string
  path?: string
  url?: string
  service?: 'auth' | 'registry'
  headers?: Record<string, unknown>
  query?: Record<string, unknown>
  json?: unknown
  body?: string
  /** A binary body given as base64 (a tarball upload). */
  bodyBase64?: string
  form?: Record<string, unknown>
  token?: string | false
}

const TOKEN_HEADERS = ['x-service-token', 'x-vault-token', 'authorization']

/**
 * Builds the Fetch request of a `request` step: base URL and token by service, query, body. An explicit
 * Content-Type header wins over the one `json` or `form` implies; an explicit token header wins over
 * the target's token.
 */
export function buildRequest(args: RequestArgs, info: TargetInfo): Request {
  const service = requestService(args) ?? 'auth'
  const base = service === 'registry' ? info.registryUrl : info.baseUrl
  const url = new URL(args.url ?? `${base.replace(/\/+$/, '')}${args.path ?? '/'}`)
  for (const [name, value] of Object.entries(args.query ?? {})) {
    for (const item of Array.isArray(value) ? value : [value]) url.searchParams.append(name, scalarText(item))
  }
  const headers = new Headers()
  for (const [name, value] of Object.entries(args.headers ?? {})) headers.set(name, scalarText(value))
  if (args.token !== false && !TOKEN_HEADERS.some((name) => headers.has(name))) {
    const token = typeof args.token === 'string' ? args.token : service === 'registry' ? info.registryToken : info.token
    if (token) {
      if (service === 'registry') headers.set('Authorization', `Bearer ${token}`)
      else headers.set(info.tokenHeader, token)
    }
  }
  let body: string | Uint8Array<ArrayBuffer> | undefined
  if (args.json !== undefined) {
    body = JSON.stringify(args.json)
    if (!headers.has('content-type')) headers.set('Content-Type', 'application/json')
  } else if (args.form !== undefined) {
    const form = new URLSearchParams()
    for (const [name, value] of Object.entries(args.form)) {
      for (const item of Array.isArray(value) ? value : [value]) form.append(name, scalarText(item))
    }
    body = form.toString()
    if (!headers.has('content-type')) headers.set('Content-Type', 'application/x-www-form-urlencoded')
  } else if (args.body !== undefined) {
    body = args.body
  } else if (args.bodyBase64 !== undefined) {
    body = new Uint8Array(Buffer.from(args.bodyBase64, 'base64'))
  }
  const method = (args.method ?? 'GET').toUpperCase()
  if (body !== undefined && (method === 'GET' || method === 'HEAD')) {
    throw new TypeError(`a ${method} request cannot carry a body (send query parameters instead)`)
  }
  return new Request(url, { method, headers, redirect: 'manual', ...(body !== undefined && { body }) })
}

/** What the reporters show of a request: token headers shortened. */
export function summarizeRequest(request: Request, body: string | undefined): RequestSummary {
  const headers: Record<string, string> = {}
  request.headers.forEach((value, name) => {
    headers[name] = TOKEN_HEADERS.includes(name) && value.length > 12 ? `${value.slice(0, 10)}…` : value
  })
  return { method: request.method, url: request.url, headers, ...(body !== undefined && { body: truncate(body, 2000) }) }
}

/** Reads a response: JSON when it parses as JSON, else text; `null` for an empty body. */
export async function observeResponse(response: Response): Promise<Observed> {
  const headers: Record<string, string> = {}
  response.headers.forEach((value, name) => {
    headers[name] = value
  })
  const text = await response.text()
  let body: unknown = text === '' ? null : text
  const type = headers['content-type'] ?? ''
  if (text !== '' && (type.includes('json') || /^\s*[[{]/.test(text))) {
    try {
      body = JSON.parse(text)
    } catch {
      body = text
    }
  }
  return { status: response.status, headers, body }
}

function scalarText(value: unknown): string {
  return typeof value === 'string' ? value : typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value)
}

function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}… (${text.length} characters)` : text
}
