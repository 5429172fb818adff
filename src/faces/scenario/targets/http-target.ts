import { journalExplanation } from './journal-explanation.ts'
import { parseDuration } from '../../../core/duration.ts'
import { getProfile } from '../../../core/profile.ts'
import { authProfile, badInputStatusCode } from '../../../services/cloud-auth/auth-profile.ts'
import { CAPABILITIES, type Capability } from '../glossary.ts'
import { FixtureError } from '../../../features/documents/index.ts'
import { canonicalHeader } from './emulator-target.ts'
import { controlClient, refuse, refusalText, type ControlCaller } from './control-client.ts'
import { controlPath } from '../../../services/control/urls.ts'
import { TargetError, TargetUnreachableError, type Target, type TargetControl, type TargetInfo, type TargetSession } from './target.ts'
import { sysAuthPath } from '../../../services/cloud-auth/urls.ts'

export interface HttpTargetOptions {
  name?: string
  /** Base URL of the auth service (and of the registry unless `registryUrl` is given). */
  url?: string
  registryUrl?: string
  /** A `doppel serve` whose `/_doppel/cloud/` control API serves the fake cloud (default: `url` on doppel). */
  cloudUrl?: string
  token?: string
  registryToken?: string
  profile?: 'service' | 'vault'
  mount?: string
  /** Declared capabilities. A `doppel serve` (found via `GET /_doppel/health`) has them all anyway. */
  capabilities?: Capability[]
  /**
   * Makes each scenario's fresh mount ready (with `mounts`); default: enable it. Against a real server the
   * conformance run configures it to use the fake cloud, so no scenario sees another's configuration.
   */
  prepareMount?: (mount: string) => Promise<void>
  /** `clock.advance` up to this long becomes a real wait (`5s`, or seconds). */
  maxRealWait?: string | number
  /** The fetch to use (tests, proxies). Default: the global fetch. */
  fetch?: typeof globalThis.fetch
}

/**
 * A server by URL. A `doppel serve` gets the emulator's capabilities through its control API; any
 * other server has only the ones declared. Throws TargetUnreachableError when nothing answers.
 */
export async function createHttpTarget(options: HttpTargetOptions): Promise<Target> {
  const fetchImpl = options.fetch ?? globalThis.fetch
  const url = trimSlash(options.url)
  const registryUrl = trimSlash(options.registryUrl)
  const primary = url ?? registryUrl
  if (!primary) throw new TargetError('Failed to create an http target: give url or registryUrl')
  const doppel = await probe(fetchImpl, primary, options.name ?? primary)
  const profile = getProfile(options.profile)
  const capabilities = new Set<Capability>(doppel ? CAPABILITIES : options.capabilities ?? [])
  if (url) capabilities.add('auth')
  if (registryUrl || doppel) capabilities.add('registry')
  const cloudUrl = trimSlash(options.cloudUrl) ?? (doppel ? primary : undefined)
  if (capabilities.has('fake-cloud') && !cloudUrl) {
    throw new TargetError(`Failed to create target "${options.name ?? primary}": the fake-cloud capability needs cloudUrl (a doppel serve)`)
  }
  const token = options.token ?? (doppel ? 'root' : '')
  const info: TargetInfo = {
    name: options.name ?? primary,
    kind: 'http',
    real: !doppel,
    profile: profile.name,
    token,
    registryToken: options.registryToken ?? token,
    tokenHeader: canonicalHeader(profile.tokenHeaders[0]!),
    mount: options.mount ?? authProfile(profile).mounts[0]!,
    baseUrl: url ?? primary,
    registryUrl: registryUrl ?? primary,
    serverIdHeader: authProfile(profile).serverIdHeader,
    badInputStatus: badInputStatusCode(profile),
  }
  // The token opens the control API of a server bound beyond loopback, and shows /_doppel/state unredacted.
  const control = httpControl(fetchImpl, primary, cloudUrl, token ? { [info.tokenHeader]: token } : {})
  const explain = doppel ? { explain: (request: { method: string; url: string }, response: Response) => journalExplanation(control, request, response) } : {}
  return {
    info,
    capabilities,
    maxRealWaitMs: options.maxRealWait === undefined ? 0 : parseDuration(options.maxRealWait, { allowFraction: true }) * 1000,
    async open({ runId, isolateMount }) {
      if (!isolateMount || !capabilities.has('mounts') || !url) {
        return { info, send: (request) => fetchImpl(request), ...explain, control, close: async () => undefined } satisfies TargetSession
      }
      const mount = `${info.mount}-${runId}`
      const sys = `${url}${sysAuthPath(mount)}`
      const headers = { [info.tokenHeader]: token, 'Content-Type': 'application/json' }
      const enable = async () => {
        if (options.prepareMount) return options.prepareMount(mount)
        const enabled = await fetchImpl(sys, { method: 'POST', headers, body: JSON.stringify({ type: 'aws' }) })
        if (!enabled.ok) throw new TargetError(`Failed to enable the auth mount "${mount}": ${await errorText(enabled)}`)
      }
      await enable()
      return {
        info: { ...info, mount },
        send: (request) => fetchImpl(request),
        ...explain,
        // A reset drops every mount but the profile's own; this scenario's comes back with it.
        control: {
          ...control,
          reset: async () => {
            await control.reset()
            await enable()
          },
        },
        close: async () => {
          await fetchImpl(sys, { method: 'DELETE', headers })
        },
      } satisfies TargetSession
    },
    close: async () => undefined,
  }
}

async function probe(fetchImpl: typeof globalThis.fetch, base: string, name: string): Promise<boolean> {
  let response: Response
  try {
    response = await fetchImpl(`${base}${controlPath('health')}`, { headers: { Accept: 'application/json' } })
  } catch (error) {
    const cause = (error as Error & { cause?: Error }).cause?.message ?? (error as Error).message
    throw new TargetUnreachableError(`target "${name}" is unreachable at ${base}: ${cause}`)
  }
  const text = await response.text()
  if (response.status !== 200) return false
  try {
    return (JSON.parse(text) as { status?: unknown }).status === 'ok'
  } catch {
    return false
  }
}

/** The control API of a `doppel serve`, with the same results as the in-process calls. */
function httpControl(fetchImpl: typeof globalThis.fetch, base: string, cloudUrl: string | undefined, auth: Record<string, string>): TargetControl {
  const caller = (root: string | undefined): ControlCaller => async (method, path, body) => {
    if (!root) throw new TargetError('this target has no doppel control API')
    const response = await fetchImpl(`${root}${path}`, {
      method,
      headers: body === undefined ? auth : { ...auth, 'Content-Type': 'application/json' },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    })
    const text = await response.text()
    if (!response.ok) refuse(response.status, text)
    return text.trim() === '' ? null : (JSON.parse(text) as unknown)
  }
  const call = caller(base)
  const cloud = caller(cloudUrl)
  return {
    ...controlClient(call, cloud),
    now: async () => {
      if (!cloudUrl) return new Date()
      return new Date(((await cloud('GET', controlPath('clock'))) as { now: string }).now)
    },
    loadFixtures: async (fixture, file, locate) => {
      const response = await fetchImpl(`${base}${controlPath('fixtures')}`, {
        method: 'POST',
        headers: { ...auth, 'Content-Type': 'application/json' },
        body: JSON.stringify(fixture),
      })
      const text = await response.text()
      if (response.status === 400) {
        const errors = (JSON.parse(text) as { errors?: string[] }).errors ?? [text]
        const line = locate?.(['fixtures']) ?? 0
        // The server names its own request body; the fixture lives in this scenario file.
        throw new FixtureError(errors.map((message) => ({ file, line, message: message.replace(/^[^:]*:\d+: /, '') })))
      }
      if (!response.ok) throw new TargetError(`Failed to load fixtures: HTTP ${response.status}: ${text.trim()}`)
      return JSON.parse(text) as unknown
    },
  }
}

async function errorText(response: Response): Promise<string> {
  return refusalText(response.status, await response.text())
}

function trimSlash(url: string | undefined): string | undefined {
  return url === undefined || url === '' ? undefined : url.replace(/\/+$/, '')
}
