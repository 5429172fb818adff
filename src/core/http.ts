import { LightResponse } from './light-response.ts'
import { parseUrl } from './light-url.ts'
import { errorKind } from './doppel-error.ts'
import { loopYielder } from './yield-to-loop.ts'
/** Small Fetch helpers shared by every service. */

export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new LightResponse(JSON.stringify(body) + '\n', {
    status,
    headers: { 'Content-Type': 'application/json', ...headers },
  })
}

export class BodyTooLargeError extends errorKind('BodyTooLargeError', 'DOPPEL_BODY_TOO_LARGE') {}

/** Default body limit: the auth service's listener limit (32 MiB). */
export const MAX_BODY_BYTES = 32 * 1024 * 1024

/**
 * A request whose whole body is already in memory (the server's light request) offers it under this key:
 * a function returning the bytes once, then throwing as a used Fetch body does.
 */
export const BUFFERED_BODY = Symbol('doppel.bufferedBody')

interface BufferedRequest {
  [BUFFERED_BODY]?: () => Uint8Array
}

/**
 * What `readBodyBytes` read of a streamed body, kept on the request: the journal takes the start of the
 * body from it instead of teeing the stream up front (a tee costs every request that has a body).
 */
const READ_BODY = Symbol('doppel.readBody')

/** The body as read so far: its pieces (the whole body once read to the end) and their total size. */
export interface BodyAsRead {
  chunks: readonly Uint8Array[]
  size: number
}

interface TappedRequest {
  [READ_BODY]?: BodyAsRead
}

/** What `readBodyBytes` or `readBodyUpTo` read of this request's streamed body, if they read any. */
export function bodyAsRead(request: Request): BodyAsRead | undefined {
  return (request as TappedRequest)[READ_BODY]
}

/**
 * Reads the body as bytes, refusing more than `limit` bytes without buffering them all. `inspect` sees
 * each piece as it arrives and may refuse the body by throwing, before the rest is read.
 */
export async function readBodyBytes(request: Request, limit = MAX_BODY_BYTES, inspect?: (chunk: Uint8Array) => void): Promise<Uint8Array> {
  const declared = Number(request.headers.get('content-length'))
  if (Number.isFinite(declared) && declared > limit) throw new BodyTooLargeError(`body exceeds ${limit} bytes`)
  const buffered = (request as BufferedRequest)[BUFFERED_BODY]
  if (buffered) {
    const bytes = buffered.call(request)
    if (bytes.byteLength > limit) throw new BodyTooLargeError(`body exceeds ${limit} bytes`)
    inspect?.(bytes)
    return bytes
  }
  if (!request.body) return new Uint8Array(0)
  const { read, over } = await readPieces(request, request.body, limit, inspect)
  if (over) throw new BodyTooLargeError(`body exceeds ${limit} bytes`)
  return joinChunks(read.chunks, read.size)
}

/**
 * The body's first `limit` bytes, and whether it went on past them (then read no further): a body as Go's
 * `http.MaxBytesReader` lets a reader see it, which meets the limit only where it reads that far.
 */
export async function readBodyUpTo(request: Request, limit: number): Promise<{ bytes: Uint8Array; over: boolean }> {
  const buffered = (request as BufferedRequest)[BUFFERED_BODY]
  if (buffered) {
    const bytes = buffered.call(request)
    return { bytes: bytes.subarray(0, limit), over: bytes.byteLength > limit }
  }
  if (!request.body) return { bytes: new Uint8Array(0), over: false }
  const { read, over } = await readPieces(request, request.body, limit)
  const bytes = await joinChunks(read.chunks, read.size)
  return { bytes: over ? bytes.subarray(0, limit) : bytes, over }
}

/**
 * A streamed body's pieces, kept on the request as they are read (`bodyAsRead`), until its end or until
 * they pass `limit` (`over`, the rest not read). `inspect` sees each piece within the limit and may refuse
 * the body by throwing.
 */
async function readPieces(request: Request, body: ReadableStream<Uint8Array>, limit: number, inspect?: (chunk: Uint8Array) => void): Promise<{ read: BodyAsRead; over: boolean }> {
  const reader = body.getReader()
  const chunks: Uint8Array[] = []
  const read: BodyAsRead = { chunks, size: 0 }
  ;(request as TappedRequest)[READ_BODY] = read
  for (;;) {
    const { done, value } = await reader.read()
    if (done) return { read, over: false }
    chunks.push(value)
    read.size += value.byteLength
    if (read.size > limit) {
      await reader.cancel().catch(() => undefined)
      return { read, over: true }
    }
    // A body the inspector refuses is not read further (nor copied whole, which alone takes tens of milliseconds at 32 MiB).
    try {
      inspect?.(value)
    } catch (error) {
      await reader.cancel().catch(() => undefined)
      throw error
    }
  }
}

async function joinChunks(chunks: readonly Uint8Array[], size: number): Promise<Uint8Array> {
  if (chunks.length === 1) return chunks[0]!
  const out = new Uint8Array(size)
  let offset = 0
  // Put together between turns of the event loop: copying a body of a hundred megabytes at once takes 100 ms.
  const pause = loopYielder()
  for (const chunk of chunks) {
    out.set(chunk, offset)
    offset += chunk.byteLength
    await pause()
  }
  return out
}

/** Where the path starts in an absolute URL's text (the first `/` after `scheme://`): read without parsing the URL. */
export function pathStart(href: string): number {
  return href.indexOf('/', href.indexOf('//') + 2)
}

/** The request's URL: parsed once by `Doppel.handle` and carried in the context, else parsed here. */
export function requestUrl(request: Request, context: { url?: URL }): URL {
  return context.url ?? parseUrl(request.url)
}

/** The media type of a Content-Type header, lower-case, without parameters. */
export function mediaType(request: Request): string {
  return (request.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase()
}
