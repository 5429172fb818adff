/** ` (did you mean "expect"?)` when a known key is within two edits of the typo, or extends it. */
export function suggestKey(key: string, known: string[]): string {
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

function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i)
  for (let i = 1; i <= a.length; i++) {
    let previous = row[0]!
    row[0] = i
    for (let j = 1; j <= b.length; j++) {
      const current = row[j]!
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, previous + (a[i - 1] === b[j - 1] ? 0 : 1))
      previous = current
    }
  }
  return row[b.length]!
}
