/**
 * Keys ordered by expiry time (a binary min-heap), so a sweep finds what has expired in
 * O(expired × log n) without looking at anything still live. Entries are never updated in place: a
 * record whose expiry moved is pushed again, and the sweep asks the owner whether a due entry still holds.
 */
export class ExpiryQueue {
  #times: number[] = []
  #keys: string[] = []

  get size(): number {
    return this.#times.length
  }

  /** Remembers that `key` expires at `expiresMs` (epoch ms). */
  push(key: string, expiresMs: number): void {
    const times = this.#times
    const keys = this.#keys
    let i = times.length
    times.push(expiresMs)
    keys.push(key)
    while (i > 0) {
      const parent = (i - 1) >> 1
      if (times[parent]! <= expiresMs) break
      times[i] = times[parent]!
      keys[i] = keys[parent]!
      i = parent
    }
    times[i] = expiresMs
    keys[i] = key
  }

  /** Takes every entry due at `nowMs` (expiry ≤ now), earliest first, handing each to `expire`. */
  drain(nowMs: number, expire: (key: string, expiresMs: number) => void): void {
    while (this.#times.length > 0 && this.#times[0]! <= nowMs) {
      const time = this.#times[0]!
      const key = this.#keys[0]!
      this.#popTop()
      expire(key, time)
    }
  }

  clear(): void {
    this.#times = []
    this.#keys = []
  }

  #popTop(): void {
    const times = this.#times
    const keys = this.#keys
    const lastTime = times.pop()!
    const lastKey = keys.pop()!
    const n = times.length
    if (n === 0) return
    let i = 0
    for (;;) {
      const left = 2 * i + 1
      if (left >= n) break
      const right = left + 1
      const child = right < n && times[right]! < times[left]! ? right : left
      if (times[child]! >= lastTime) break
      times[i] = times[child]!
      keys[i] = keys[child]!
      i = child
    }
    times[i] = lastTime
    keys[i] = lastKey
  }
}
