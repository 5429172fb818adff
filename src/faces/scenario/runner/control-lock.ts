/**
 * Scenarios on one shared server share its clock, faults and reset: one that moves them runs alone, and
 * the others run side by side. A writer waiting blocks new readers, so it is not starved.
 */
export function createControlLock() {
  let shared = 0
  let exclusive = false
  let exclusiveWaiting = 0
  let waiters: (() => void)[] = []
  const wake = () => {
    const woken = waiters
    waiters = []
    for (const wakeUp of woken) wakeUp()
  }
  const wait = () => new Promise<void>((resolve) => waiters.push(resolve))

  return {
    async run<T>(alone: boolean, task: () => Promise<T>): Promise<T> {
      if (alone) {
        exclusiveWaiting++
        while (exclusive || shared > 0) await wait()
        exclusiveWaiting--
        exclusive = true
      } else {
        while (exclusive || exclusiveWaiting > 0) await wait()
        shared++
      }
      try {
        return await task()
      } finally {
        if (alone) exclusive = false
        else shared--
        wake()
      }
    },
  }
}
