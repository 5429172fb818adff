/** `Host` names, compared without URL parsing (the server checks one on every request). */

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]'])

/** `host[:port]` → [name, port] (port '' when absent), lower-case; undefined when the port is not digits. */
export function splitAuthority(authority: string): [string, string] | undefined {
  const text = authority.toLowerCase()
  const close = text.startsWith('[') ? text.indexOf(']') : -1
  const colon = text.indexOf(':', close + 1)
  if (colon === -1) return [text, '']
  const port = text.slice(colon + 1)
  for (let i = 0; i < port.length; i++) {
    const code = port.charCodeAt(i)
    if (code < 48 || code > 57) return undefined
  }
  return [text.slice(0, colon), port]
}

/** `localhost`, `*.localhost`, `127.0.0.1` or `[::1]`, lower-case, without a port. */
export function isLoopbackName(name: string): boolean {
  return LOOPBACK_NAMES.has(name) || name.endsWith('.localhost')
}

/** Whether a `Host` (any port) is a loopback name; absent (HTTP/1.0) counts as one: no browser sends that. */
export function isLoopbackHost(host: string | undefined): boolean {
  if (host === undefined) return true
  const parts = splitAuthority(host)
  return parts !== undefined && isLoopbackName(parts[0])
}
