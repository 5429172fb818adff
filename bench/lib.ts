/** Measurement helpers for the benchmarks: every figure is a ratio against a floor from the same run. */

export interface Figure {
  name: string
  value: number
  unit: string
  /** e.g. "<= 1.15" or "< 300" */
  target: string
  met: boolean
  /** What was compared, for the printed table. */
  detail?: string
  /**
   * The same ratio for the floor of the work, measured in the same run (a server's figure: node:http doing
   * doppel's work in process), against the same target: what a plain server doing the same work gets.
   */
  floor?: { value: number; met: boolean }
}

/**
 * Gives `fetch` a new connection pool and lets the old one go. Under MSW 3 in Node, a mocked connection
 * kept alive after an answer of known length (any `HttpResponse.json`, any 204) is never used again nor
 * closed: each such answer leaves a client in its origin's pool for good, and every later request to that
 * origin looks through them all (2,000 left behind slow a no-op handler's next answer by about a tenth,
 * 5,000 by about a fifth). The in-process figures start a pool every `FRESH_POOL_EVERY` calls, so that
 * neither side is timed with what earlier calls left behind.
 */
export async function freshConnectionPool(): Promise<void> {
  // Where Node's fetch (undici) keeps its dispatcher; made at the first request.
  const key = Symbol.for('undici.globalDispatcher.1')
  const global = globalThis as Record<symbol, unknown>
  const current = global[key] as { constructor: new () => unknown; destroy(): Promise<void> } | undefined
  if (current === undefined) return
  global[key] = new current.constructor()
  await current.destroy()
}

/** Calls of each side between two fresh connection pools (`freshConnectionPool`). */
export const FRESH_POOL_EVERY = 250

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = sorted.length >> 1
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}

/**
 * Times `fn` `iterations` times after `warmup` runs, in batches so timer resolution does not dominate,
 * and returns the median time per call in microseconds.
 */
export async function timeAsync(fn: () => Promise<unknown>, { warmup = 200, iterations = 2000, batch = 20 } = {}): Promise<number> {
  for (let i = 0; i < warmup; i++) await fn()
  const samples: number[] = []
  for (let i = 0; i < iterations; i += batch) {
    const start = process.hrtime.bigint()
    for (let j = 0; j < batch; j++) await fn()
    samples.push(Number(process.hrtime.bigint() - start) / 1000 / batch)
  }
  return median(samples)
}

export function timeSync(fn: () => unknown, options: { warmup?: number; iterations?: number; batch?: number } = {}): number {
  const { warmup = 200, iterations = 2000, batch = 20 } = options
  for (let i = 0; i < warmup; i++) fn()
  const samples: number[] = []
  for (let i = 0; i < iterations; i += batch) {
    const start = process.hrtime.bigint()
    for (let j = 0; j < batch; j++) fn()
    samples.push(Number(process.hrtime.bigint() - start) / 1000 / batch)
  }
  return median(samples)
}

/**
 * Alternates measuring the subject and the floor `rounds` times and takes the median of the per-round
 * ratios, so drift in machine load hits both sides alike.
 */
export async function ratioAgainstFloor(subject: () => Promise<number>, floor: () => Promise<number>, rounds = 5): Promise<{ ratio: number; subject: number; floor: number }> {
  const ratios: number[] = []
  const subjects: number[] = []
  const floors: number[] = []
  for (let i = 0; i < rounds; i++) {
    const f = await floor()
    const s = await subject()
    floors.push(f)
    subjects.push(s)
    ratios.push(s / f)
  }
  return { ratio: median(ratios), subject: median(subjects), floor: median(floors) }
}

export function figure(name: string, value: number, unit: string, target: string, detail?: string, floor?: number): Figure {
  const [op, limitText] = target.split(' ') as [string, string]
  const limit = Number(limitText)
  const meets = (v: number) => (op === '<=' ? v <= limit : op === '<' ? v < limit : op === '>=' ? v >= limit : v > limit)
  const rounded = (v: number) => Math.round(v * 1000) / 1000
  return {
    name,
    value: rounded(value),
    unit,
    target,
    met: meets(value),
    ...(detail && { detail }),
    ...(floor !== undefined && { floor: { value: rounded(floor), met: meets(floor) } }),
  }
}

/** A figure missed whose floor misses its target too: a plain server doing doppel's work misses it as well, on this machine. */
export const floorMissesToo = (f: Figure): boolean => !f.met && f.floor !== undefined && !f.floor.met

/** µs one call of `run` took, on the wall clock. */
export async function microsOf(run: () => Promise<unknown>): Promise<number> {
  const start = process.hrtime.bigint()
  await run()
  return Number(process.hrtime.bigint() - start) / 1000
}

/**
 * Interleaves single calls of the subject and the floor `iterations` times after a warm-up and compares
 * their medians: drift in machine load and garbage collection hits both sides alike. `between` runs,
 * untimed, before every `FRESH_POOL_EVERY` pairs of counted calls.
 */
export async function interleaved(
  subject: () => Promise<unknown>,
  floor: () => Promise<unknown>,
  { warmup = 200, iterations = 3000, between }: { warmup?: number; iterations?: number; between?: () => Promise<unknown> } = {},
): Promise<{ ratio: number; subject: number; floor: number }> {
  for (let i = 0; i < warmup; i++) {
    await floor()
    await subject()
  }
  const subjects: number[] = []
  const floors: number[] = []
  for (let i = 0; i < iterations; i++) {
    if (between && i % FRESH_POOL_EVERY === 0) await between()
    floors.push(await microsOf(floor))
    subjects.push(await microsOf(subject))
  }
  const s = median(subjects)
  const f = median(floors)
  return { ratio: s / f, subject: s, floor: f }
}
