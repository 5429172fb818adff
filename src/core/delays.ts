/**
 * The pending waits of one emulator instance (latency faults), so that shutting down can end them at once
 * instead of waiting out their timers.
 */
export class Delays {
  #pending = new Set<{ timer: NodeJS.Timeout; fail: (error: Error) => void }>()

  /** Resolves after `ms`, or rejects with `reason()` when `endAll` runs first. */
  wait(ms: number): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const entry = {
        timer: setTimeout(() => {
          this.#pending.delete(entry)
          resolve()
        }, ms),
        fail: reject,
      }
      this.#pending.add(entry)
    })
  }

  /** Ends every pending wait now: its timer is cleared and its promise rejects with `error`. */
  endAll(error: () => Error): void {
    for (const entry of this.#pending) {
      clearTimeout(entry.timer)
      entry.fail(error())
    }
    this.#pending.clear()
  }
}
