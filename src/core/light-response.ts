/**
 * A Fetch `Response` that only records what the services answer with: a status, a plain header record
 * and a string or byte body. The HTTP server writes those parts directly (one `writeHead` + `end`); any
 * other use (reading `headers` or the body, `clone`, …) builds the real `Response` once and delegates to
 * it. `instanceof Response` holds, so it stands wherever a `Response` is expected.
 */

type LightBody = string | Uint8Array | null

interface LightInit {
  status?: number
  headers?: Record<string, string>
  /**
   * The value the body was written from, for an in-process caller that would otherwise parse the body
   * back into it (the iam login reading the fake STS's answer).
   */
  value?: unknown
}

/** The parts a service answers with: header names as given, no Content-Length (`wireHeaders` adds it). */
export interface ResponseParts {
  status: number
  headers: Record<string, string>
  body: LightBody
}

const NO_HEADERS: Record<string, string> = Object.freeze({}) as Record<string, string>

// Declaration merging: a LightResponse offers every member of Response (delegated, see below).
export interface LightResponse extends Response {}

export class LightResponse {
  #parts: ResponseParts
  #real: Response | undefined
  #headers: Headers | undefined
  #used = false
  readonly #value: unknown

  constructor(body: LightBody = null, init: LightInit = {}) {
    this.#parts = { status: init.status ?? 200, headers: init.headers ?? NO_HEADERS, body }
    this.#value = init.value
  }

  /** The value the body was written from, if one was given. */
  get value(): unknown {
    return this.#value
  }

  get status(): number {
    return this.#parts.status
  }

  get ok(): boolean {
    return this.#parts.status >= 200 && this.#parts.status < 300
  }

  /**
   * The recorded parts, while nothing has touched the real Response (whose headers could have been
   * changed since); otherwise undefined.
   */
  parts(): ResponseParts | undefined {
    return this.#real === undefined && this.#headers === undefined ? this.#parts : undefined
  }

  /** Headers alone cost far less than the whole Response (the iam login reads the fake STS's). */
  get headers(): Headers {
    return (this.#headers ??= this.#real?.headers ?? new Headers(wireHeaders(this.#parts)))
  }

  get bodyUsed(): boolean {
    return this.#used || (this.#real?.bodyUsed ?? false)
  }

  async text(): Promise<string> {
    const body = this.#parts.body
    if (this.#real !== undefined || typeof body !== 'string') return this.real().text()
    if (this.#used) throw new TypeError('Body is unusable: Body has already been read')
    this.#used = true
    return body
  }

  /** The real Response, built on first use. */
  real(): Response {
    if (this.#real === undefined) {
      const { status, body } = this.#parts
      // A Uint8Array is a valid body at run time; the DOM typing of BodyInit is narrower than undici's.
      const real = new Response(body as BodyInit | null, { status, headers: this.#headers ?? wireHeaders(this.#parts) })
      // A body read through `text()` stays read.
      if (this.#used) void real.text()
      this.#real = real
    }
    return this.#real
  }
}

// Every other member of Response goes to the real one; `instanceof Response` holds through the prototype.
const DELEGATED = ['statusText', 'type', 'url', 'redirected', 'body'] as const
const DELEGATED_METHODS = ['clone', 'json', 'arrayBuffer', 'blob', 'formData', 'bytes'] as const
for (const name of DELEGATED) {
  Object.defineProperty(LightResponse.prototype, name, {
    get(this: LightResponse) {
      return this.real()[name]
    },
    configurable: true,
  })
}
for (const name of DELEGATED_METHODS) {
  Object.defineProperty(LightResponse.prototype, name, {
    value(this: LightResponse, ...args: unknown[]) {
      const real = this.real() as unknown as Record<string, (...a: unknown[]) => unknown>
      return real[name]!(...args)
    },
    configurable: true,
    writable: true,
  })
}
Object.setPrototypeOf(LightResponse.prototype, Response.prototype)

/** Statuses that carry no body and so no Content-Length. */
export function bodyless(status: number): boolean {
  return status === 204 || status === 304 || status < 200
}

/**
 * An answer's headers as the server writes them, and as a client in process reads them: a string body
 * without a type typed as a Fetch `Response` types it, and the body's Content-Length, as the real
 * services send it. Under MSW a client keeps its connection after an answer of known length; after one
 * without, MSW ends it, which costs the client's next request about a tenth of a login in process
 * (docs/performance.md, "MSW's connections").
 */
export function wireHeaders({ status, headers, body }: ResponseParts): Record<string, string> {
  const out: Record<string, string> = {}
  let typed = false
  for (const name in headers) {
    out[name] = headers[name]!
    if (name.length === 12 && name.toLowerCase() === 'content-type') typed = true
  }
  if (typeof body === 'string' && !typed) out['content-type'] = 'text/plain;charset=UTF-8'
  if (!bodyless(status)) out['content-length'] = String(body === null ? 0 : typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength)
  return out
}

/** A real Response for callers that need one (MSW, `doppel.fetch`). */
export function realResponse(response: Response): Response {
  return response instanceof LightResponse ? response.real() : response
}

/** The value a light response's body was written from (see `LightInit.value`), or undefined. */
export function responseValue(response: Response): unknown {
  return response instanceof LightResponse ? response.value : undefined
}

/** The parts a server can write directly, or undefined for a Response that must be read. */
export function responseParts(response: Response): ResponseParts | undefined {
  return response instanceof LightResponse ? response.parts() : undefined
}

/**
 * One header of a response as `headers.get` reads it (values of the name in any case, joined with ", "),
 * from a light response's record without building its `Headers`.
 */
export function responseHeader(response: Response, name: string): string | null {
  const parts = responseParts(response)
  if (parts === undefined) return response.headers.get(name)
  const wanted = name.toLowerCase()
  let value: string | null = null
  for (const key in parts.headers) {
    if (key.length === wanted.length && key.toLowerCase() === wanted) value = value === null ? parts.headers[key]! : `${value}, ${parts.headers[key]!}`
  }
  return value
}
