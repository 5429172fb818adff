/**
 * The real server's HTTP layer (Go's `net/http` ServeMux) answers a path that is not in its clean form (an
 * empty segment, `.` or `..`) with 307 to the clean one, before any route or token is looked at
 * (docs/reference/cloud-auth.md §1.4, "Clean paths"). A role tag holding `//` in its base64 is the case
 * clients meet: raw in the path it is redirected, percent-encoded (`%2F`) it is not.
 */
import { explainResponse } from '../../../core/explanation.ts'
import { pathStart } from '../../../core/http.ts'

/** The path with repeated slashes, `.` and `..` segments removed; a trailing slash is kept (as Go's ServeMux cleans). */
function cleanPath(path: string): string {
  const kept: string[] = []
  for (const segment of path.split('/')) {
    if (segment === '' || segment === '.') continue
    if (segment === '..') kept.pop()
    else kept.push(segment)
  }
  const clean = `/${kept.join('/')}`
  return path.endsWith('/') && clean !== '/' ? `${clean}/` : clean
}

/** The 307 to a path's clean form (under `basePath`, a tenant's prefix), or undefined when the (still percent-encoded) path is clean. */
export function cleanPathRedirect(request: Request, url: URL, basePath: string): Response | undefined {
  const href = request.url
  const start = pathStart(href)
  // Most paths are clean: tell by the string before taking it apart.
  if (href.indexOf('//', start) === -1 && href.indexOf('/.', start) === -1) return undefined
  const path = rawPath(href, start) ?? url.pathname
  const clean = cleanPath(path)
  if (clean === path) return undefined
  // Go builds the target from the cleaned escaped path as if it were unescaped, so `%` comes back as `%25`;
  // a tenant's prefix leads it, so a client that follows stays in its tenant.
  const location = basePath + escapeGoPath(clean) + url.search
  const headers = new Headers({ Location: location, 'Cache-Control': 'no-store' })
  const withBody = request.method === 'GET'
  if (withBody || request.method === 'HEAD') headers.set('Content-Type', 'text/html; charset=utf-8')
  const body = withBody ? `<a href="${escapeHtml(location)}">Temporary Redirect</a>.\n\n` : null
  return explainResponse(new Response(body, { status: 307, headers }), {
    rule: 'clean path',
    seen: path,
    expected: clean,
    hint: 'the real server redirects a path with an empty, "." or ".." segment before routing it; put a value holding "/" (a role tag) in the path percent-encoded (%2F)',
  })
}

/**
 * The path as the client sent it, where the request still holds it (the HTTP server's requests do; a URL
 * parsed by the client or by `new URL` has lost its `.` and `..` segments), and it is in the encoded form
 * Go keeps as is; undefined otherwise.
 */
function rawPath(href: string, start: number): string | undefined {
  if (start === -1) return undefined
  const path = href.slice(start).split(/[?#]/, 1)[0]!
  return /^[\w\-.~!$&'()*+,;=:@[\]/%]*$/.test(path) ? path : undefined
}

/**
 * Go's `url.URL.EscapedPath` of a path with no raw form: all but letters, digits and -_.~$&+,/:;=@
 * %-escaped. The path is ASCII (sent, or as the URL parser encodes it), so a character is one byte.
 */
function escapeGoPath(path: string): string {
  return path.replace(/[^A-Za-z0-9\-_.~$&+,/:;=@]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`)
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&#34;', "'": '&#39;' }

/** Go's `html.EscapeString` subset that `http.Redirect` applies to the link in its body. */
function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => HTML_ESCAPES[char]!)
}
