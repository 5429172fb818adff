import { explainResponse, type Explanation } from '../../core/explanation.ts'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { controlAccess, controlBodyTypes, hasManagementToken, JSON_TYPES } from '../../services/control/index.ts'
import { CONTROL_URLS, isControlTarget } from '../../services/control/urls.ts'
import { Emulator } from '../../core/emulator.ts'
import { LightRequest } from '../../core/light-request.ts'
import { LightResponse } from '../../core/light-response.ts'
import { parseUrl } from '../../core/light-url.ts'
import { SERVICE_PROFILE } from '../../core/profile.ts'
import { CONTROL_TABLE, type Doppel, classifyRequest, ownerOfPath, type Classification, type Surface } from '../../features/doppel/index.ts'
import { isFakeCloudHost } from '../../services/fake-cloud/urls.ts'
import { isLoopbackName, splitAuthority } from '../../core/host-names.ts'

/** Who may reach a server, beyond what it always admits (see `createRequestGuard`). */
export interface GuardOptions {
  /** Extra `Host` names admitted on a loopback bind; a leading dot admits a domain and its subdomains. */
  allowedHosts?: readonly string[]
  /** Tokens that open the control API beyond loopback, besides the emulator's root tokens. */
  controlTokens?: readonly string[]
  /**
   * Answer the fake cloud's instance metadata service beyond loopback without a token (`--expose-imds`):
   * for containers that reach a cloud listener bound beyond loopback on purpose. Whoever reaches the
   * server then reads the instances' role credentials.
   */
  exposeImds?: boolean
}

/** The listener a guard stands in front of. */
export interface ListenerOptions {
  surface: Surface
  /** Whether it serves tenants under `/t/<name>/`. */
  tenants: boolean
}

/** Decides, before the emulator sees a request, whether it is answered at all. */
export type RequestGuard = (req: IncomingMessage, res: ServerResponse) => Response | undefined

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

/** Whether a bound address is loopback: nothing off this machine can reach it. */
export function isLoopbackAddress(address: string): boolean {
  return address.startsWith('127.') || address === '::1' || address.startsWith('::ffff:127.') || address === 'localhost'
}

const loopbackAlias = (name: string) => (isLoopbackName(name) ? 'localhost' : name)

/** Whether an `Origin` names the same origin as the request's `Host` (loopback aliases count equal). */
function sameOrigin(origin: string, host: string): boolean {
  const scheme = origin.indexOf('://')
  if (scheme === -1) return false
  const defaultPort = origin.slice(0, scheme).toLowerCase() === 'https' ? '443' : '80'
  const from = splitAuthority(origin.slice(scheme + 3))
  const to = splitAuthority(host)
  if (!from || !to || loopbackAlias(from[0]) !== loopbackAlias(to[0])) return false
  return (from[1] || defaultPort) === (to[1] || '80') || (from[1] === '' && to[1] === '')
}

/** The URL the router reads, from the `Host` and the raw target, as the node adapter builds it; undefined when none can be built. */
function targetUrl(host: string, target: string): URL | undefined {
  try {
    return parseUrl(`http://${host}${target}`)
  } catch {
    return undefined
  }
}

/** The request's classification (`classifyRequest`, the router's own), from the URL the node adapter will build of its Host and target. */
function classify(req: IncomingMessage, url: URL, listener: ListenerOptions): Classification {
  const authorization = () => req.headers.authorization
  return classifyRequest({ listener: listener.surface, url, authorization, tenants: listener.tenants })
}

/** The error answer in the envelope of the service the target belongs to (the control API's when none). */
export function serviceRefusal(target: string, status: number, message: string): Response {
  return (ownerOfPath(target) ?? CONTROL_URLS).refusal(target, status, message)
}

function refusal(target: string, status: number, message: string, explanation: Explanation): Response {
  return explainResponse(serviceRefusal(target, status, message), explanation)
}

function mediaType(req: IncomingMessage): string {
  const type = req.headers['content-type'] ?? ''
  const semicolon = type.indexOf(';')
  return (semicolon === -1 ? type : type.slice(0, semicolon)).trim().toLowerCase()
}

const hasBody = (req: IncomingMessage) =>
  req.headers['transfer-encoding'] !== undefined || (req.headers['content-length'] !== undefined && req.headers['content-length'] !== '0')

/**
 * The server's front door, run once per request before the emulator: Host allow-list on a loopback bind
 * (DNS rebinding), refusal of browser cross-site writes (and of any cross-site call to `/_doppel/*`),
 * JSON-only control writes (no `text/plain` simple-request CSRF), and the control API's token beyond
 * loopback. Real clients send neither `Origin` nor `Sec-Fetch-Site` and are unaffected.
 *
 * @note The bound address is read on the first request (the server listens by then).
 */
export function createRequestGuard(
  handler: Pick<Doppel, 'handle'>,
  server: { address(): AddressInfo | string | null },
  options: GuardOptions = {},
  listener: ListenerOptions = { surface: 'main', tenants: false },
): RequestGuard {
  const allowed = (options.allowedHosts ?? []).map((name) => name.toLowerCase())
  const exact = new Set(allowed.filter((name) => !name.startsWith('.')))
  const domains = allowed.filter((name) => name.startsWith('.'))
  let bound: { loopback: boolean; name: string } | undefined
  const binding = () => {
    if (bound) return bound
    const address = server.address()
    const text = typeof address === 'object' && address ? address.address : '127.0.0.1'
    return (bound = { loopback: isLoopbackAddress(text), name: text.includes(':') ? `[${text}]` : text })
  }

  const hostAllowed = (host: string): boolean => {
    const parts = splitAuthority(host)
    if (!parts) return false
    const name = parts[0]
    if (isLoopbackName(name) || name === binding().name || exact.has(name)) return true
    for (const domain of domains) if (name === domain.slice(1) || name.endsWith(domain)) return true
    return isFakeCloudHost(host)
  }

  return (req, res) => {
    const target = req.url ?? '/'
    // Go's server answers `OPTIONS *` itself, before any handler: 200 with an empty body (seen on the real
    // server). Nothing else a service owns can follow from it.
    if (req.method === 'OPTIONS' && target === '*') return new LightResponse(null, { status: 200 })
    if (!target.startsWith('/')) {
      return refusal(target, 400, 'Failed to read the request: the request target must be a path', {
        rule: 'request target',
        seen: target,
        expected: 'a path starting with /',
      })
    }
    const host = req.headers.host
    const { loopback } = binding()
    const foreignHost = loopback && host !== undefined && !hostAllowed(host)
    const url = targetUrl(host ?? '127.0.0.1', target)
    // A Host no URL can hold (a port past 65535, a character no host has) would fail every service that
    // reads the URL: refused in Go's words, as Go's server refuses a Host it cannot read. One not admitted
    // on this bind is refused as such below, and guarded meanwhile as the control API is.
    if (url === undefined && !foreignHost) {
      return refusal(target, 400, 'malformed Host header', {
        rule: 'Host header',
        seen: host ?? '',
        expected: 'a host name or IP address, and a port of at most 65535, that make a URL with the target',
      })
    }
    const classification: Classification = url === undefined ? { journal: undefined, answer: undefined, access: 'control', path: target } : classify(req, url, listener)
    const { path } = classification
    const control = classification.access === 'control' && !(classification.face === 'imds' && options.exposeImds)
    if (isControlTarget(path)) res.setHeader('Cross-Origin-Resource-Policy', 'same-origin')
    if (foreignHost) {
      return refusal(target, 403, `Host "${host}" is not allowed: doppel answers only loopback names on a loopback bind; add it with --allowed-host ${splitAuthority(host)?.[0] ?? host}`, {
        rule: 'Host check',
        seen: host,
        expected: 'a loopback name, an IP literal, the bound host, an AWS name or an --allowed-host',
        hint: `start doppel with --allowed-host ${splitAuthority(host)?.[0] ?? host}`,
      })
    }
    const origin = req.headers.origin
    const crossSite = req.headers['sec-fetch-site'] === 'cross-site' || (origin !== undefined && !sameOrigin(origin, host ?? ''))
    if (crossSite && (control || !SAFE_METHODS.has(req.method ?? ''))) {
      return refusal(target, 403, `Cross-site request refused: doppel answers browser requests only from its own origin${control ? '' : ' (reads excepted)'}`, {
        rule: 'cross-site check',
        seen: origin !== undefined ? `Origin ${origin}` : `Sec-Fetch-Site ${req.headers['sec-fetch-site']}`,
        expected: `the server's own origin (Host ${host ?? 'none'})`,
        hint: control ? 'call the control API from a test or a script, not from another site' : 'only reads are answered across sites',
      })
    }
    if (!control) return undefined
    const answeredByControl = classification.answer === 'control'
    // Open reads (the health check, the dashboard's files) hold no secret: the control table says which.
    const open = answeredByControl && controlAccess(CONTROL_TABLE, req.method ?? '', path) === 'open'
    if (!loopback && !open && !controlTokenPresent(handler, req, options.controlTokens)) {
      return refusal(target, 401, 'The control API needs a management token beyond loopback: send the root token or the --control-token in X-Service-Token (X-Vault-Token with the vault profile) or Authorization: Bearer', {
        rule: 'control token beyond loopback',
        seen: 'no root or control token',
        hint: 'send the root token or a --control-token',
      })
    }
    if (isControlTarget(path) && !SAFE_METHODS.has(req.method ?? '') && hasBody(req)) {
      const types = (answeredByControl ? controlBodyTypes(CONTROL_TABLE, req.method ?? '', path) : undefined) ?? JSON_TYPES
      const type = mediaType(req)
      if (!types.includes(type) && !type.endsWith('+json')) {
        return refusal(target, 415, `Control writes need Content-Type: ${types.join(' or ')}${type ? `, not ${type}` : ''}`, {
          rule: 'control write media type',
          seen: type || 'no Content-Type',
          expected: types.join(' or '),
        })
      }
    }
    return undefined
  }
}

/** Whether the request carries a root token of the emulator served (a proxy has none) or a control token. */
function controlTokenPresent(handler: Pick<Doppel, 'handle'>, req: IncomingMessage, controlTokens: readonly string[] = []): boolean {
  const context = handler instanceof Emulator ? { emulator: handler, profile: handler.profile } : { emulator: { rootTokens: new Set<string>() }, profile: SERVICE_PROFILE }
  // The token headers as sent, each value apart (Node keeps only the first Authorization in req.headers),
  // so that the token is read as every other request's is.
  const names = new Set([...context.profile.tokenHeaders, 'authorization'])
  const raw: string[] = []
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    if (names.has(req.rawHeaders[i]!.toLowerCase())) raw.push(req.rawHeaders[i]!, req.rawHeaders[i + 1]!)
  }
  return hasManagementToken(new LightRequest('GET', 'http://doppel.invalid/', raw, undefined), context, controlTokens)
}
