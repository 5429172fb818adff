import { loopYielder } from './yield-to-loop.ts'

/** Text is handed on in pieces of about this many characters. */
const PIECE = 64 * 1024

/**
 * The JSON text of `value` exactly as `JSON.stringify` writes it, in pieces, with a turn of the event loop
 * whenever a few milliseconds of work have passed: a state of hundreds of megabytes is written without
 * holding other requests. Arrays and plain objects are walked; anything else (a record's fields, a value
 * with `toJSON`) is written by `JSON.stringify`. Two extensions: an iterable that is not an array (a
 * generator) is written as an array, and a `JsonEntries` as an object, each item or entry taken only when
 * it is reached.
 */
export async function* jsonChunks(value: unknown, pause: () => Promise<void> = loopYielder()): AsyncGenerator<string> {
  let pending: string[] = []
  let length = 0
  const out = (text: string) => {
    pending.push(text)
    length += text.length
  }
  const flush = function* () {
    if (length < PIECE) return
    yield pending.join('')
    pending = []
    length = 0
  }
  async function* write(item: unknown): AsyncGenerator<string> {
    if (item instanceof JsonEntries) {
      out('{')
      let first = true
      for (const [key, field] of item.entries) {
        if (field === undefined) continue
        if (!first) out(',')
        first = false
        out(JSON.stringify(key) + ':')
        yield* write(field)
        yield* flush()
        await pause()
      }
      out('}')
    } else if (Array.isArray(item) || isLazyList(item)) {
      out('[')
      let first = true
      for (const element of item as Iterable<unknown>) {
        if (!first) out(',')
        first = false
        yield* write(element)
        yield* flush()
        await pause()
      }
      out(']')
    } else if (isPlainObject(item)) {
      out('{')
      let first = true
      for (const key of Object.keys(item)) {
        const field = item[key]
        if (field === undefined || typeof field === 'function' || typeof field === 'symbol') continue
        if (!first) out(',')
        first = false
        out(JSON.stringify(key) + ':')
        yield* write(field)
      }
      out('}')
    } else {
      // Objects leave undefined and functions out (above); in an array JSON.stringify writes them as null.
      out(JSON.stringify(item) ?? 'null')
    }
  }
  yield* write(value)
  if (length > 0) yield pending.join('')
}

/** An object `jsonChunks` writes from its entries, taking each as it reaches it (a keyed collection of records). */
export class JsonEntries {
  readonly entries: Iterable<readonly [string, unknown]>
  constructor(entries: Iterable<readonly [string, unknown]>) {
    this.entries = entries
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || typeof (value as { toJSON?: unknown }).toJSON === 'function') return false
  const prototype = Object.getPrototypeOf(value)
  return prototype === Object.prototype || prototype === null
}

function isLazyList(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !isPlainObject(value) && typeof (value as Iterable<unknown>)[Symbol.iterator] === 'function' && !(value instanceof Map) && !(value instanceof Set) && !ArrayBuffer.isView(value)
}

/**
 * Answers made by `streamedJsonResponse`, which the node:http adapter sends piece by piece as they come
 * instead of collecting them (a weak set: it holds no answer alive, as `core/explanation.ts`'s map).
 */
const streamed = new WeakSet<Response>()

/** Whether an answer's body is to be sent as it is made (chunked), not collected first. */
export function isStreamed(response: Response): boolean {
  return streamed.has(response)
}

/** An answer whose JSON body is written piece by piece as it is sent (see `jsonChunks`). */
export function streamedJsonResponse(status: number, value: unknown): Response {
  const encoder = new TextEncoder()
  const pieces = jsonChunks(value)
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { done, value: text } = await pieces.next()
      if (done) {
        controller.enqueue(encoder.encode('\n'))
        controller.close()
      } else {
        controller.enqueue(encoder.encode(text))
      }
    },
    async cancel() {
      await pieces.return(undefined)
    },
  })
  const response = new Response(body, { status, headers: { 'Content-Type': 'application/json' } })
  streamed.add(response)
  return response
}
