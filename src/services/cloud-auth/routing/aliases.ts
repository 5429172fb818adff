/**
 * The deprecated path names (docs/reference/cloud-auth.md §3, spec Versioning): `whitelist` for `accesslist`, `blacklist`
 * for `denylist`. They map onto the current paths, so they share code and storage.
 */
export const ALIASES: readonly [deprecated: string, current: string][] = [
  ['roletag-blacklist', 'roletag-denylist'],
  ['identity-whitelist', 'identity-accesslist'],
  ['tidy/roletag-blacklist', 'tidy/roletag-denylist'],
  ['tidy/identity-whitelist', 'tidy/identity-accesslist'],
  ['config/tidy/roletag-blacklist', 'config/tidy/roletag-denylist'],
  ['config/tidy/identity-whitelist', 'config/tidy/identity-accesslist'],
]

/** The current path for a mount-relative path; only the leading name changes, never a captured value. */
export function currentPath(path: string): string {
  for (const [deprecated, current] of ALIASES) {
    if (path.startsWith(deprecated) && (path.length === deprecated.length || path[deprecated.length] === '/')) return current + path.slice(deprecated.length)
  }
  return path
}
