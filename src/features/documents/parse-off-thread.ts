import { Worker } from 'node:worker_threads'
import type { ValuePath } from './glossary.ts'
import type { ScenarioIssue } from './document-error.ts'
import type { SchemaIssue } from './schema-validator.ts'
import { putTexts, unpackLargeValue } from './large-values.ts'
import { loopYielder } from '../../core/yield-to-loop.ts'
import type { WorkerBudget } from '../../core/shared-pool.ts'
import { JsonScan, NestingTooDeepError } from '../../core/bounded-parse.ts'
import { codeFile, MODULE_EXTENSION } from '../../core/package-files.ts'

/** Documents up to this size are parsed on the calling thread: a worker's start costs more than they do. */
export const OFF_THREAD_SIZE = 64 * 1024

/** The most heap one parse may use (an 8 MiB document at the control API's body limit needs about half). */
const PARSE_HEAP_LIMIT_MB = 1536

/**
 * The heap a document's parse is given and counted for against the shared budget: the YAML parser keeps
 * every node with its position, about 90 bytes per byte of text; 150 leaves room for the schema check.
 */
function parseHeapMb(text: string): number {
  return Math.min(PARSE_HEAP_LIMIT_MB, Math.max(64, Math.ceil((Buffer.byteLength(text) * 150) / 1048576)))
}

export interface ParseJob {
  kind?: 'document'
  text: string
  file: string
  /** The shipped schema (`fixture.schema.json`) to check the document against, if any. */
  schema?: string
  /** Whether to look for a `${{ }}` template (which only scenarios resolve). */
  findTemplate?: boolean
}

export interface ParseResult {
  value: unknown
  /** YAML syntax errors, with lines. */
  issues: ScenarioIssue[]
  schemaIssues: (SchemaIssue & { line: number })[]
  /** The first string holding a template, when asked; null for none. */
  templatePath?: ValuePath | null
}

export interface OffThreadSource extends ParseResult {
  /** The line of a path into the document (asked of the worker, which keeps the parsed nodes). */
  locate(path: ValuePath, at?: 'key' | 'value'): Promise<number>
  /** Ends the worker: call once the lines are no longer needed. */
  close(): void
}

/**
 * Parses a large document on a worker thread, so that the event loop keeps answering requests while it
 * runs; the value comes back in slices, rebuilt between turns of the loop. The worker starts when `budget`
 * has room for its heap (BusyError when too many wait), which it holds until it ends. A document that needs
 * more than its heap is refused as an issue, not a crash.
 */
export async function parseOffThread(job: ParseJob, budget: WorkerBudget): Promise<OffThreadSource> {
  const heapMb = parseHeapMb(job.text)
  const worker = await startParseWorker(job, heapMb, budget, job.file)
  const pending = new Map<number, (line: number) => void>()
  let nextId = 0
  let ended = false
  return new Promise((resolve, reject) => {
    const overBudget = (error: Error) =>
      outOfHeap(error) ? { file: job.file, line: 0, message: `the document is too large to parse: it needs more than ${heapMb} MiB` } : undefined
    worker.once('error', (error) => {
      ended = true
      for (const settle of pending.values()) settle(0)
      const issue = overBudget(error)
      if (issue) resolve({ value: undefined, issues: [issue], schemaIssues: [], templatePath: null, locate: async () => 0, close: () => undefined })
      else reject(error)
    })
    worker.once('exit', () => {
      ended = true
      for (const settle of pending.values()) settle(0)
    })
    worker.once('message', async (result: ParseResult) => {
      worker.on('message', ({ id, line }: { id: number; line: number }) => {
        pending.get(id)?.(line)
        pending.delete(id)
      })
      const value = await unpackLargeValue(result.value, loopYielder())
      resolve({
        ...result,
        value,
        locate: (path, at = 'value') =>
          ended
            ? Promise.resolve(0)
            : new Promise((settle) => {
                const id = nextId++
                pending.set(id, settle)
                worker.postMessage({ id, path, at })
              }),
        close: () => void worker.terminate(),
      })
    })
  })
}

/** A parse worker started once `budget` has room for its heap, which it holds until it ends. */
async function startParseWorker(workerData: ParseJob | JsonJob, heapMb: number, budget: WorkerBudget, what: string, transferList: ArrayBuffer[] = []): Promise<Worker> {
  const release = await budget.take(heapMb, what)
  let worker: Worker
  try {
    worker = new Worker(codeFile(`features/documents/parse-worker${MODULE_EXTENSION}`), {
      workerData,
      transferList,
      resourceLimits: { maxOldGenerationSizeMb: heapMb },
    })
  } catch (error) {
    release()
    throw error
  }
  worker.once('exit', release)
  return worker
}

/** Whether a parse worker ended because it ran out of the heap it was given. */
const outOfHeap = (error: Error) => (error as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY'

class HeapExceeded extends Error {}

/**
 * Bytes scanned and copied between two looks at the clock: about a millisecond's work (8 MiB held the thread
 * 23–47 ms on a slow 2-core machine, above the 5 ms slices everything else keeps to).
 */
const COPY_SLICE = 1024 * 1024

/** A JSON body for the worker: its bytes, its nesting already checked. */
export interface JsonJob {
  kind: 'json'
  bytes: Uint8Array
}

/**
 * A JSON body parsed off the thread: the value and its JSON length as `JSON.stringify` writes it; or why
 * not: it is not JSON, it nests too deep, or it needs more heap than a parse worker may have (`heap`: the
 * caller parses it itself).
 */
export type ParsedJson = { value: unknown; jsonLength: number } | { error: 'nesting'; limit: number } | { error: 'syntax' } | { error: 'heap' }

/**
 * The heap a JSON body's parse needs: the text, its strings and the slices sent back (4 bytes a byte), and
 * about 100 bytes for each object, array and entry (counted by the nesting scan). A 160 MiB state of roles
 * needs about 900 MiB; a body of a million empty objects far more than its size.
 */
function jsonHeapMb(bytes: number, structures: number): number {
  return 64 + Math.ceil((bytes * 4 + structures * 100) / 1048576)
}

/**
 * Checks the nesting of a large JSON body here, then decodes and parses it on a worker thread (as
 * `parseOffThread` a document) and rebuilds the value here in slices between turns of the event loop.
 * `bytes` stays as it is (the journal reads the request's): the worker is handed a copy, made in slices with
 * the scan, since sending the bytes as they are would copy them all at once.
 */
export async function parseJsonOffThread(bytes: Uint8Array, nestingLimit: number, what: string, budget: WorkerBudget): Promise<ParsedJson> {
  const pause = loopYielder()
  const scan = new JsonScan(nestingLimit, { perCollection: Infinity, total: Infinity }, true)
  const copy = new Uint8Array(bytes.byteLength)
  for (let at = 0; at < bytes.byteLength; at += COPY_SLICE) {
    const piece = bytes.subarray(at, at + COPY_SLICE)
    try {
      scan.push(piece)
    } catch (error) {
      if (error instanceof NestingTooDeepError) return { error: 'nesting', limit: error.limit }
      throw error
    }
    copy.set(piece, at)
    await pause()
  }
  const heapMb = jsonHeapMb(bytes.byteLength, scan.structures)
  if (heapMb > PARSE_HEAP_LIMIT_MB) return { error: 'heap' }
  const job: JsonJob = { kind: 'json', bytes: copy }
  const worker = await startParseWorker(job, heapMb, budget, what, [copy.buffer])
  type Answer = { skeleton: unknown; jsonLength: number; count: number } | { error: 'nesting'; limit: number } | { error: 'syntax' }
  const messages: ((message: unknown) => void)[] = []
  let failed: ((error: Error) => void) | undefined
  const next = <T>() =>
    new Promise<T>((resolve, reject) => {
      messages.push(resolve as (message: unknown) => void)
      failed = reject
    })
  worker.on('message', (message) => messages.shift()?.(message))
  worker.once('error', (error) => failed?.(outOfHeap(error) ? new HeapExceeded() : error))
  worker.once('exit', () => failed?.(new Error('the parse worker stopped before it answered')))
  try {
    const answer = await next<Answer>()
    if ('error' in answer) return answer
    // The slices' text comes in messages of a few megabytes, each asked for once the last is taken.
    const texts: string[] = []
    while (texts.length < answer.count) {
      const asked = next<string[]>()
      worker.postMessage('next')
      for (const text of await asked) texts.push(text)
    }
    return { value: await unpackLargeValue(putTexts(answer.skeleton, texts), pause), jsonLength: answer.jsonLength }
  } catch (error) {
    if (error instanceof HeapExceeded) return { error: 'heap' }
    throw error
  } finally {
    void worker.terminate()
  }
}
