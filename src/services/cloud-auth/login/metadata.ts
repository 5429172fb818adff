/** The metadata fields both flows select by default (`default` in config/identity). */
const DEFAULT_SELECTION = ['account_id', 'auth_type']

/**
 * The configured metadata selection (`ec2_metadata` / `iam_metadata`; `null` = the default) picked from
 * the login's values. Fields with empty values are skipped, as the real service skips them.
 */
export function selectMetadata(selection: readonly string[] | null, values: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {}
  for (const field of selection ?? DEFAULT_SELECTION) {
    const value = values[field]
    if (value) out[field] = value
  }
  return out
}
