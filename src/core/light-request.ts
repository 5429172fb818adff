/**
 * A Fetch `Request` whose parts are built only when touched (the technique of `@hono/node-server`, see
 * docs/decisions/node-http-adapter.md): the method and URL are strings, headers are read from a flat
 * name/value list (Node's `rawHeaders`) on demand, and a body already in memory is handed over as is.
 * Any member beyond those builds the real `Request` once and delegates to it; `instanceof Request` holds.
 * The HTTP server makes one per request; the iam login makes one for its replay to the fake STS.
 */
import { BUFFERED_BODY } from './http.ts'

const EMPTY = new Uint8Array(0)

/** Headers read straight from Node's `rawHeaders`; mutating or iterating members use a real `Headers`. */
export interface LightHeaders extends Headers {}

export class LightHeaders {
  #raw: string[]
  #real: Headers | undefined

  constructor(raw: string[]) {
    this.#raw = raw
  }

  /** As Fetch's `get`: every value of the name, joined with ", ". */
  get(name: string): string | null {
    if (this.#real) return this.#real.get(name)
    const wanted = name.toLowerCase()
    const raw = this.#raw
    let value: string | null = null
    for (let i = 0; i < raw.length; i += 2) {
      const key = raw[i]!
      if (key.length === wanted.length && key.toLowerCase() === wanted) value = value === null ? raw[i + 1]! : `${value}, ${raw[i + 1]!}`
    }
    return value
  }

  has(name: string): boolean {
    return this.get(name) !== null
  }

  /** The flat name/value list, while no real `Headers` (which could have been changed) exists. */
  rawList(): string[] | undefined {
    return this.#real === undefined ? this.#raw : undefined
  }

  real(): Headers {
    if (!this.#real) {
      const headers = new Headers()
      for (let i = 0; i < this.#raw.length; i += 2) headers.append(this.#raw[i]!, this.#raw[i + 1]!)
      this.#real = headers
    }
    return this.#real
  }
}

for (const name of ['append', 'delete', 'set', 'forEach', 'entries', 'keys', 'values', 'getSetCookie', Symbol.iterator] as const) {
  Object.defineProperty(LightHeaders.prototype, name, {
    value(this: LightHeaders, ...args: unknown[]) {
      const real = this.real() as unknown as Record<PropertyKey, (...a: unknown[]) => unknown>
      return real[name]!(...args)
    },
    configurable: true,
    writable: true,
  })
}
Object.setPrototypeOf(LightHeaders.prototype, Headers.prototype)

export interface LightRequest extends Request {}

export class LightRequest {
  readonly method: string
  readonly url: string
  readonly headers: Headers
  #body: Uint8Array | undefined
  #used = false
  #real: Request | undefined

  /**
   * `rawHeaders` alternate names and values, as received (valid HTTP names and values); `body` is the
   * whole body (undefined for none).
   */
  constructor(method: string, url: string, rawHeaders: string[], body: Uint8Array | undefined) {
    this.method = method
    this.url = url
    this.headers = new LightHeaders(rawHeaders)
    this.#body = body
  }

  /** The body bytes, once, as Fetch's body readers allow; a request without a body reads as empty each time. */
  [BUFFERED_BODY](): Uint8Array {
    if (this.#used || this.#real?.bodyUsed) throw new TypeError('Body is unusable: Body has already been read')
    if (this.#body === undefined) return EMPTY
    this.#used = true
    return this.#body
  }

  get bodyUsed(): boolean {
    return this.#used || (this.#real?.bodyUsed ?? false)
  }

  /** The body as received, without reading it (the journal keeps a copy of its start). */
  receivedBody(): Uint8Array | undefined {
    return this.#body
  }

  async bytes(): Promise<Uint8Array<ArrayBuffer>> {
    return this[BUFFERED_BODY]() as Uint8Array<ArrayBuffer>
  }

  async arrayBuffer(): Promise<ArrayBuffer> {
    const bytes = this[BUFFERED_BODY]()
    return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer
  }

  async text(): Promise<string> {
    return new TextDecoder().decode(this[BUFFERED_BODY]())
  }

  async json(): Promise<unknown> {
    return JSON.parse(await this.text())
  }

  /**
   * Another light request over the same method, URL and header list, with its own copy of the body (the
   * iam login's retried replay clones per attempt). Once the real Request exists, the real one clones as
   * Fetch does. A request whose body was read cannot be cloned (TypeError, as Fetch).
   */
  clone(): Request {
    if (this.bodyUsed) throw new TypeError('unusable')
    const raw = this.headers instanceof LightHeaders ? this.headers.rawList() : undefined
    if (this.#real !== undefined || raw === undefined) return this.real().clone()
    return new LightRequest(this.method, this.url, raw, this.#body && Buffer.from(this.#body))
  }

  real(): Request {
    if (!this.#real) {
      const hasBody = this.#body !== undefined && this.#body.byteLength > 0 && !this.#used
      this.#real = new Request(this.url, {
        method: this.method,
        headers: this.headers instanceof LightHeaders ? this.headers.real() : this.headers,
        ...(hasBody && { body: this.#body as Uint8Array<ArrayBuffer> }),
      })
    }
    return this.#real
  }
}

const REAL_MEMBERS = [
  'body', 'signal', 'cache', 'credentials', 'destination', 'integrity', 'keepalive', 'mode', 'redirect',
  'referrer', 'referrerPolicy', 'duplex', 'isHistoryNavigation', 'isReloadNavigation',
] as const
for (const name of REAL_MEMBERS) {
  Object.defineProperty(LightRequest.prototype, name, {
    get(this: LightRequest) {
      return (this.real() as unknown as Record<string, unknown>)[name]
    },
    configurable: true,
  })
}
for (const name of ['blob', 'formData'] as const) {
  Object.defineProperty(LightRequest.prototype, name, {
    value(this: LightRequest, ...args: unknown[]) {
      const real = this.real() as unknown as Record<string, (...a: unknown[]) => unknown>
      return real[name]!(...args)
    },
    configurable: true,
    writable: true,
  })
}
Object.setPrototypeOf(LightRequest.prototype, Request.prototype)
