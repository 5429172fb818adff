/**
 * The real service's policy sanitising (`policyutil.SanitizePolicies` without adding `default`):
 * trimmed, lower-cased, empties dropped, de-duplicated, sorted; `root` among them leaves only `root`.
 */
export function sanitizePolicies(policies: readonly string[]): string[] {
  const cleaned = lowerCaseSet(policies)
  return cleaned.includes('root') ? ['root'] : cleaned
}

/** The SDK's `strutil.RemoveDuplicates(items, true)`: trimmed, lower-cased, empties dropped, de-duplicated, sorted. */
export function lowerCaseSet(items: readonly string[]): string[] {
  return [...new Set(items.map((item) => item.trim().toLowerCase()).filter((item) => item !== ''))].sort()
}

/** Whether every item of `subset` is in `set` (exact strings). */
export function isSubset(set: readonly string[], subset: readonly string[]): boolean {
  const members = new Set(set)
  return subset.every((item) => members.has(item))
}
