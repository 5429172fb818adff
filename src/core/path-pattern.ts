/**
 * msw-style path patterns (`/api/v2/organizations/:org/*`) compiled once to an anchored RegExp.
 * Used by fault injection; a pattern may be a path or a full URL.
 */
export function compilePathPattern(pattern: string): RegExp {
  let source = ''
  for (const part of pattern.split(/(\*|:[A-Za-z_][A-Za-z0-9_]*)/)) {
    if (part === '*') source += '.*'
    else if (part.startsWith(':') && part.length > 1) source += '[^/]+'
    else source += part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')
  }
  return new RegExp(`^${source}/?$`)
}

/** Whether `url` matches `pattern`: full-URL patterns match the URL without query, others the path. */
export function matchesPathPattern(compiled: RegExp, pattern: string, url: URL): boolean {
  const subject = /^[a-z]+:\/\//i.test(pattern) ? `${url.origin}${url.pathname}` : url.pathname
  return compiled.test(subject)
}
