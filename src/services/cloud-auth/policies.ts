/**
 * The real service's policy sanitising (`policyutil.SanitizePolicies` without adding `default`):
 * trimmed, lower-cased, empties dropped, de-duplicated, sorted; `root` among them leaves only `root`.
 */
export function sanitizePolicies(policies: readonly string[]): string[] {
  const cleaned = policies.map((policy) => policy.trim().toLowerCase()).filter((policy) => policy !== '')
  if (cleaned.includes('root')) return ['root']
  return [...new Set(cleaned)].sort()
}

/** Whether every item of `subset` is in `set` (exact strings). */
export function isSubset(set: readonly string[], subset: readonly string[]): boolean {
  const members = new Set(set)
  return subset.every((item) => members.has(item))
}
