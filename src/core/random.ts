import { createHash, randomBytes, randomUUID } from 'node:crypto'

const HEX_BYTES = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'))

/**
 * The emulator's random source. Seeded: a deterministic PRNG (sfc32), so the same seed and the same
 * calls give the same ids and tokens. Unseeded: `node:crypto`.
 */
export class Random {
  readonly seed: number | undefined
  #state: Uint32Array | undefined
  /** Counts seeded draws (the position a snapshot keeps), for cheap "did anything change" checks. */
  #draws = 0

  /** What `fixed` values derive from: the seed, else a salt drawn once for the instance. */
  readonly #ownSalt: string
  /** The own salt, or a restored snapshot's until the next reset. */
  #salt: string

  constructor(seed?: number | string) {
    this.seed = seed === undefined ? undefined : normaliseSeed(seed)
    this.#salt = this.#ownSalt = this.seed === undefined ? randomBytes(16).toString('hex') : String(this.seed)
    this.reset()
  }

  /**
   * 32 bytes fixed by `label` for the instance's life, resets included: for what the real service makes
   * once at its start (a root token's accessor, the cluster's name). Derived from the seed (else a salt
   * drawn once), not drawn from the stream, so they move no other id.
   */
  fixed(label: string): Buffer {
    return createHash('sha256').update(`${this.#salt}\0${label}`).digest()
  }

  /** What `fixed` values derive from, for a snapshot. */
  get salt(): string {
    return this.#salt
  }

  /** Derives `fixed` values as the snapshot's instance did (its root token accessors, its cluster's name). */
  restoreSalt(salt: string): void {
    this.#salt = salt
  }

  reset(): void {
    this.#salt = this.#ownSalt
    if (this.seed === undefined) {
      this.#state = undefined
      return
    }
    const s = this.seed >>> 0
    this.#state = new Uint32Array([0x9e3779b9, 0x243f6a88, 0xb7e15162, s])
    for (let i = 0; i < 15; i++) this.#next()
  }

  get draws(): number {
    return this.#draws
  }

  /** The generator's position (four 32-bit words), or null when it draws from `node:crypto`. */
  position(): number[] | null {
    return this.#state ? [...this.#state] : null
  }

  /** Continues from a saved position (null: draw from `node:crypto`), until the next reset. */
  restorePosition(position: readonly number[] | null): void {
    this.#state = position === null ? undefined : Uint32Array.from(position)
    this.#draws++
  }

  #next(): number {
    this.#draws++
    const st = this.#state!
    const t = (((st[0]! + st[1]!) >>> 0) + st[3]!) >>> 0
    st[3] = (st[3]! + 1) >>> 0
    st[0] = st[1]! ^ (st[1]! >>> 9)
    st[1] = (st[2]! + (st[2]! << 3)) >>> 0
    st[2] = ((st[2]! << 21) | (st[2]! >>> 11)) >>> 0
    st[2] = (st[2]! + t) >>> 0
    return t
  }

  bytes(n: number): Buffer {
    if (!this.#state) return this.#pooledBytes(n)
    const out = Buffer.allocUnsafe(n)
    for (let i = 0; i < n; i += 4) {
      const v = this.#next()
      for (let j = 0; j < 4 && i + j < n; j++) out[i + j] = (v >>> (j * 8)) & 0xff
    }
    return out
  }

  // Unseeded draws come from one 4 KiB block of `randomBytes` at a time: a call per draw costs ~2 µs.
  #pool = Buffer.alloc(0)
  #poolAt = 0

  #pooledBytes(n: number): Buffer {
    if (n > POOL_SIZE / 4) return randomBytes(n)
    if (this.#poolAt + n > this.#pool.length) {
      this.#pool = randomBytes(POOL_SIZE)
      this.#poolAt = 0
    }
    const out = Buffer.from(this.#pool.subarray(this.#poolAt, this.#poolAt + n))
    this.#poolAt += n
    return out
  }

  /** One uniform 32-bit value; the same as `bytes(4)` read little-endian, without the allocation. */
  #u32(): number {
    if (this.#state) return this.#next()
    if (this.#poolAt + 4 > this.#pool.length) {
      this.#pool = randomBytes(POOL_SIZE)
      this.#poolAt = 0
    }
    const v = this.#pool.readUInt32LE(this.#poolAt)
    this.#poolAt += 4
    return v
  }

  /** A uniform integer in [0, max). */
  int(max: number): number {
    if (max <= 0) return 0
    const limit = Math.floor(0x100000000 / max) * max
    for (;;) {
      const v = this.#u32()
      if (v < limit) return v % max
    }
  }

  /** A float in [0, 1). */
  float(): number {
    return this.#u32() / 0x100000000
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!
  }

  /** A string of `length` characters drawn from `alphabet`. */
  string(length: number, alphabet: string): string {
    let out = ''
    for (let i = 0; i < length; i++) out += alphabet[this.int(alphabet.length)]
    return out
  }

  hex(length: number): string {
    return this.string(length, '0123456789abcdef')
  }

  uuid(): string {
    if (!this.#state) return randomUUID()
    // The 16 bytes `bytes(16)` would draw, written as text directly (every answer carries a request id).
    let text = ''
    for (let i = 0; i < 16; i += 4) {
      const v = this.#next()
      for (let j = 0; j < 4; j++) {
        const at = i + j
        let byte = (v >>> (j * 8)) & 0xff
        if (at === 6) byte = (byte & 0x0f) | 0x40
        else if (at === 8) byte = (byte & 0x3f) | 0x80
        text += HEX_BYTES[byte]!
        if (at === 3 || at === 5 || at === 7 || at === 9) text += '-'
      }
    }
    return text
  }

  /** A 32-bit seed derived from this source, for seeding another generator (faker). */
  childSeed(): number {
    return this.#u32()
  }
}

const POOL_SIZE = 4096

/** 16 bytes, as 32 hex digits, in the UUID layout as go-uuid writes them: no version or variant bits set. */
export function uuidLayout(hex: string): string {
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`
}

export const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'

function normaliseSeed(seed: number | string): number {
  if (typeof seed === 'number' && Number.isInteger(seed)) return seed >>> 0
  const text = String(seed)
  let h = 2166136261
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i)
    h = Math.imul(h, 16777619)
  }
  return h >>> 0
}
