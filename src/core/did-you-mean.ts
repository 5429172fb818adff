/** The candidate closest to `input` by edit distance, when it is close enough to be a likely typo. */
export function didYouMean(input: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined
  let bestDistance = Infinity
  for (const candidate of candidates) {
    const distance = editDistance(input, candidate)
    if (distance < bestDistance) {
      best = candidate
      bestDistance = distance
    }
  }
  return best !== undefined && bestDistance <= Math.max(1, Math.floor(best.length / 3)) ? best : undefined
}

/** Edits (insert, delete, substitute, swap two neighbours) from `a` to `b`; long inputs are not compared. */
export function editDistance(a: string, b: string): number {
  if (a.length > 64 || b.length > 64) return Infinity
  const rows = [Array.from({ length: b.length + 1 }, (_, j) => j)]
  for (let i = 1; i <= a.length; i++) {
    const row = [i]
    for (let j = 1; j <= b.length; j++) {
      let cost = Math.min(rows[i - 1]![j]! + 1, row[j - 1]! + 1, rows[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1))
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) cost = Math.min(cost, rows[i - 2]![j - 2]! + 1)
      row[j] = cost
    }
    rows.push(row)
  }
  return rows[a.length]![b.length]!
}

/**
 * ` (did you mean "expect"?)` when a known key is within two edits of `key` (case aside) or extends it, else
 * '': the hint after an unknown key in a document or a body.
 */
export function suggestKey(key: string, known: readonly string[]): string {
  let best: string | undefined
  let bestDistance = 3
  const lower = key.toLowerCase()
  for (const candidate of known) {
    const other = candidate.toLowerCase()
    // A truncated or over-long name is as good a hint as a typo.
    const prefix = lower.length >= 3 && other.length >= 3 && (other.startsWith(lower) || lower.startsWith(other))
    const distance = prefix ? 1 : editDistance(lower, other)
    if (distance < bestDistance) {
      best = candidate
      bestDistance = distance
    }
  }
  return best === undefined ? '' : ` (did you mean "${best}"?)`
}

/**
 * Why `value` (an object) holds a key not in `known`, as `unknown field "tims" (did you mean "times"?)`, or
 * undefined when every key is known; the first such key is named.
 */
export function unknownField(value: object, known: readonly string[]): string | undefined {
  for (const key of Object.keys(value)) {
    if (!known.includes(key)) return `unknown field ${JSON.stringify(key.length > 64 ? `${key.slice(0, 64)}…` : key)}${suggestKey(key, known)}`
  }
  return undefined
}
