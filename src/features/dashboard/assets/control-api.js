// The page's only way out: the control API beside it, same-origin, with relative URLs, so the page works
// at the root and inside a tenant (/t/<name>/_doppel/ui/) alike.

const CONTROL = new URL('../', location.href)

// Beyond loopback the control API wants a management token: open the page as …/_doppel/ui/#token=<token>.
// It is kept for this tab only and taken out of the address bar.
const TOKEN_KEY = 'doppel-control-token'
const fromFragment = /(?:^#|&)token=([^&]+)/.exec(location.hash)
if (fromFragment) {
  sessionStorage.setItem(TOKEN_KEY, decodeURIComponent(fromFragment[1]))
  history.replaceState(null, '', location.pathname + location.search)
}
const token = sessionStorage.getItem(TOKEN_KEY)

export class ApiError extends Error {}

/** One control API call; JSON in and out. Writes always say `Content-Type: application/json`. */
export async function api(path, { method = 'GET', json, text } = {}) {
  const headers = { Accept: 'application/json' }
  if (token) headers.Authorization = `Bearer ${token}`
  let body
  if (json !== undefined) body = JSON.stringify(json)
  else if (text !== undefined) body = text
  if (body !== undefined || method !== 'GET') headers['Content-Type'] = 'application/json'
  const response = await fetch(new URL(path, CONTROL), { method, headers, body, cache: 'no-store', credentials: 'same-origin' })
  const raw = await response.text()
  let data = null
  try {
    data = raw ? JSON.parse(raw) : null
  } catch {
    data = null
  }
  if (!response.ok) {
    const message = Array.isArray(data?.errors) ? data.errors.join('; ') : raw || response.statusText
    const error = new ApiError(`${response.status}: ${message}`)
    error.status = response.status
    throw error
  }
  return data
}

/** A link to another instance's dashboard (a tenant's), relative to the control API. */
export const controlPath = (path) => new URL(path, CONTROL).pathname
