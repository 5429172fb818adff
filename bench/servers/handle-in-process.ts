// doppel's own work for one of the bench's requests, without node:http: `doppel.handle` of the light
// request the server's adapter builds (raw headers, the body's bytes), the answer taken as the adapter
// takes it. `doppel.fetch` would add a Fetch Request and Response that the server does not make.
import { LightRequest } from '../../src/core/light-request.ts'
import { responseHeader, responseParts } from '../../src/core/light-response.ts'
import type { Doppel } from '../../src/index.ts'
import type { Load } from '../fixtures.ts'

export interface Answer {
  status: number
  type: string
  body: string | Uint8Array
}

/**
 * One request answered: a light answer's parts as they are (the adapter writes them; reading them through
 * `arrayBuffer()` would build a Fetch Response the server never makes), any other answer read whole.
 */
export async function handleInProcess(doppel: Doppel, { method, path, headers = {}, body }: Load): Promise<Answer> {
  const raw = ['Host', '127.0.0.1', ...Object.entries(headers).flat()]
  if (body !== undefined) raw.push('Content-Length', String(Buffer.byteLength(body)))
  const res = await doppel.handle(new LightRequest(method, `http://127.0.0.1${path}`, raw, body === undefined ? undefined : Buffer.from(body)))
  if (res.status >= 300) throw new Error(`in process, ${method} ${path} answered ${res.status} ${await res.text()}`)
  const parts = responseParts(res)
  if (parts) return { status: parts.status, type: responseHeader(res, 'content-type') ?? '', body: parts.body ?? '' }
  return { status: res.status, type: res.headers.get('content-type') ?? '', body: new Uint8Array(await res.arrayBuffer()) }
}
