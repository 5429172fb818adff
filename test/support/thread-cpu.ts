/**
 * This thread's CPU time in milliseconds: what doppel's own work held the event loop for while a request
 * was under way, without the waits for a core that the wall clock counts on a busy machine.
 */
export function threadCpuMs(): number {
  const { user, system } = process.threadCpuUsage()
  return (user + system) / 1000
}

/** The 99th percentile and the largest of some measurements (0 for none). */
export function p99AndMax(values: number[]): { p99: number; max: number } {
  const sorted = [...values].sort((a, b) => a - b)
  return { p99: sorted[Math.floor(sorted.length * 0.99)] ?? 0, max: sorted.at(-1) ?? 0 }
}
