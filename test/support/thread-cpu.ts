import { PerformanceObserver } from 'node:perf_hooks'

/**
 * This thread's CPU time in milliseconds: what doppel's own work held the event loop for while a request
 * was under way, without the waits for a core that the wall clock counts on a busy machine.
 */
export function threadCpuMs(): number {
  const { user, system } = process.threadCpuUsage()
  return (user + system) / 1000
}

/** The 99th percentile and the largest of some measurements (0 for none). */
function p99AndMax(values: number[]): { p99: number; max: number } {
  const sorted = [...values].sort((a, b) => a - b)
  return { p99: sorted[Math.floor(sorted.length * 0.99)] ?? 0, max: sorted.at(-1) ?? 0 }
}

/** What a request sent during long work was held for. */
export interface Held {
  count: number
  /** Wall-clock latency: what a client saw, including waits for a core on a busy machine. */
  wall: { p99: number; max: number }
  /** This thread's CPU time while each was under way, the runtime's collections of the heap included. */
  cpu: { p99: number; max: number }
  /** The same less the collections: what doppel's own work held it for. */
  own: { p99: number; max: number }
  /** The longest collection of the heap on this thread meanwhile. */
  longestCollection: number
}

/**
 * Times `probe` (a small request) over and over, `gapMs` apart, while `work` runs, on the wall clock and in
 * this thread's CPU time. The collections V8 makes of the heap on this thread are counted apart: their length
 * follows the heap and the machine (the same run here saw them take 10 to 60 ms), not doppel's slicing.
 */
export async function heldWhile(work: () => Promise<unknown>, probe: () => Promise<unknown>, gapMs: number): Promise<Held> {
  const collections: { start: number; end: number }[] = []
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) collections.push({ start: entry.startTime, end: entry.startTime + entry.duration })
  })
  observer.observe({ entryTypes: ['gc'] })
  const windows: { start: number; end: number; cpu: number }[] = []
  let busy = true
  const probes = (async () => {
    while (busy) {
      const start = performance.now()
      const startCpu = threadCpuMs()
      await probe()
      windows.push({ start, end: performance.now(), cpu: threadCpuMs() - startCpu })
      await new Promise((resolve) => setTimeout(resolve, gapMs))
    }
  })()
  try {
    await new Promise((resolve) => setTimeout(resolve, 20))
    await work()
  } finally {
    busy = false
    await probes
    for (const entry of observer.takeRecords()) collections.push({ start: entry.startTime, end: entry.startTime + entry.duration })
    observer.disconnect()
  }
  const collectedWithin = ({ start, end }: { start: number; end: number }) =>
    collections.reduce((sum, gc) => sum + Math.max(0, Math.min(end, gc.end) - Math.max(start, gc.start)), 0)
  return {
    count: windows.length,
    wall: p99AndMax(windows.map(({ start, end }) => end - start)),
    cpu: p99AndMax(windows.map(({ cpu }) => cpu)),
    own: p99AndMax(windows.map((window) => Math.max(0, window.cpu - collectedWithin(window)))),
    longestCollection: Math.max(0, ...collections.map(({ start, end }) => end - start)),
  }
}

/** One line saying what `heldWhile` measured. */
export const describeHeld = ({ count, wall, cpu, own, longestCollection }: Held): string =>
  `${count} small requests meanwhile; latency p99 ${wall.p99.toFixed(0)} ms, max ${wall.max.toFixed(0)} ms; ` +
  `CPU time of this thread while one was under way p99 ${cpu.p99.toFixed(0)} ms, max ${cpu.max.toFixed(0)} ms, ` +
  `less collections of the heap p99 ${own.p99.toFixed(0)} ms, max ${own.max.toFixed(0)} ms (longest collection ${longestCollection.toFixed(0)} ms)`
