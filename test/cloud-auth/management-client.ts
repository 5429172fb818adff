/** A small HTTP client for the auth service's management endpoints, in process. */
import { createDoppel, type Doppel, type DoppelOptions } from '../../src/features/doppel/index.ts'

export interface Answer {
  status: number
  headers: Headers
  /** Parsed JSON, or undefined for an empty body. */
  body: any
}

export interface CallOptions {
  /** The JSON body, or a raw string body. */
  body?: unknown
  headers?: Record<string, string>
  /** Leave the token out. */
  anonymous?: boolean
  mount?: string
}

async function answer(response: Response): Promise<Answer> {
  const text = await response.text()
  // JSON but for the HTML link of a redirect to a clean path.
  const json = response.headers.get('content-type')?.startsWith('application/json')
  return { status: response.status, headers: response.headers, body: text === '' ? undefined : json ? JSON.parse(text) : text }
}

export class ManagementClient {
  readonly doppel: Doppel

  constructor(doppel: Doppel) {
    this.doppel = doppel
  }

  async call(method: string, path: string, options: CallOptions = {}): Promise<Answer> {
    const headers: Record<string, string> = { ...(options.anonymous ? {} : { 'X-Service-Token': 'root' }) }
    let body: string | undefined
    if (options.body !== undefined) {
      body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body)
      headers['Content-Type'] = 'application/json'
    }
    Object.assign(headers, options.headers)
    const url = path.startsWith('/') ? `http://doppel.test${path}` : `http://doppel.test/v1/auth/${options.mount ?? 'cloud'}/${path}`
    return answer(await this.doppel.fetch(url, { method, headers, body }))
  }

  read = (path: string, options?: CallOptions) => this.call('GET', path, options)
  list = (path: string, options?: CallOptions) => this.call('LIST', path, options)
  write = (path: string, body: unknown = {}, options?: CallOptions) => this.call('POST', path, { ...options, body })
  remove = (path: string, options?: CallOptions) => this.call('DELETE', path, options)
}

/** A fresh emulator (seeded, frozen clock, no credential variables unless given) and a client on it. */
export function managementClient(options: DoppelOptions = {}): ManagementClient {
  const cloudAuth = { ...(options.env === undefined && { env: {} }), ...options.cloudAuth }
  return new ManagementClient(createDoppel({ seed: 7, clock: { start: '2024-05-01T10:00:00Z', frozen: true }, ...options, cloudAuth }))
}

/** The error body of a failure: `{"errors":[message]}`. */
export function errors(...messages: string[]) {
  return { errors: messages }
}

export const multi = (message: string) => `1 error occurred:\n\t* ${message}\n\n`
