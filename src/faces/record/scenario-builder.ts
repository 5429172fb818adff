/**
 * Recorded exchanges → one scenario document in the project's format. Service calls become `request`
 * steps; the fake cloud's and the emulator's control calls (a `doppel serve` upstream) become the
 * format's own actions (`cloud.createInstance`, `cloud.identityDocument`, `cloud.createPrincipal`,
 * `clock.advance`, `fixtures`), so signed login payloads are made afresh on every replay.
 */
import { decodeOrKeep } from '../../core/decode-segment.ts'
import { literalJson, literalText } from '../../features/documents/index.ts'
import { parse as parseYaml } from 'yaml'
import { formatJsonPath } from '../scenario/shared.ts'
import { expectationOf } from './expectation.ts'
import { header, isText, jsonBody, type Exchange } from './exchange.ts'
import { IAM_FIELDS, iamSigning } from './iam-signing.ts'
import { documentInPkcs7 } from './pkcs7-document.ts'
import { roleFixture, roleOfPath } from './read-state.ts'
import { mountPath, splitMountPath } from '../../services/cloud-auth/urls.ts'
import { CONTROL_PREFIX, controlPath } from '../../services/control/urls.ts'
import { CLOUD_MOUNT, cloudPath } from '../../services/fake-cloud/urls.ts'
import { Refs } from './refs.ts'
import { redactPairs, SECRET_HEADERS, SECRET_KEYS, secretEnvName, secretVarName, TOKEN_HEADERS } from './secrets.ts'
import { TRANSPORT_HEADERS, volatility } from './volatile.ts'
import { ownEntry } from '../../core/own-field.ts'

export interface ScenarioDocument {
  version: 1
  name: string
  desc: string
  labels: string[]
  requires?: string[]
  vars?: Record<string, string>
  fixtures?: Record<string, unknown>
  steps: Record<string, unknown>[]
}

export interface BuildOptions {
  name: string
  labels?: string[]
  /**
   * The upstream's state when the recording started (a doppel's `GET /_doppel/snapshot`): the scenario's
   * first step restores it, so a replay starts where the recording did (fixtures, faker values, random
   * position, fake-cloud instances), and paths keep the recorded mount, which the snapshot holds.
   */
  startingState?: unknown
  /** The upstream's base URL: answers name it in absolute links (registry pagination), the target's on replay. */
  upstream?: string
}

type Json = Record<string, unknown>

/** Turns recorded exchanges into a scenario that replays on the emulator, a `doppel serve` and the upstream. */
export function buildScenario(exchanges: readonly Exchange[], options: BuildOptions): ScenarioDocument {
  const builder = new ScenarioBuilder(options)
  for (const exchange of exchanges) builder.add(exchange)
  return builder.document()
}

/** Builds a scenario one exchange at a time, as a recording goes; `document()` is the scenario so far. */
export class ScenarioBuilder {
  readonly refs = new Refs()
  readonly steps: Record<string, unknown>[] = []
  readonly vars: Record<string, string> = {}
  readonly principals = new Map<string, string>()
  fixtures: Json | undefined
  usesCloud = false
  skipped = 0
  refused = 0
  exchanges = 0
  /** Whether a service call (not only control calls) was added: a scenario worth writing. */
  hasRequests = false
  /** Roles the session wrote, or already read: a later read shows the session's doing, not the starting state. */
  readonly #rolesSeen = new Set<string>()
  #next = 1
  readonly options: BuildOptions

  constructor(options: BuildOptions) {
    this.options = options
    if (options.upstream !== undefined) this.refs.add(options.upstream.replace(/\/+$/, ''), { template: '${{ target.registryUrl }}' })
    if (options.startingState !== undefined) {
      this.steps.push({
        id: 'start',
        request: { method: 'PUT', path: controlPath('snapshot'), json: literalJson(options.startingState) },
        expect: { status: 204 },
      })
    }
  }

  document(): ScenarioDocument {
    const requires = [...(this.usesCloud ? ['fake-cloud'] : []), ...(this.options.startingState !== undefined ? ['reset'] : [])]
    const left = [this.skipped > 0 && `${this.skipped} control calls left out`, this.refused > 0 && `${this.refused} refused by the proxy left out`].filter(Boolean)
    return {
      version: 1,
      name: this.options.name,
      desc: `Recorded by doppel record: ${this.exchanges} exchanges${left.map((part) => `, ${part}`).join('')}.`,
      labels: this.options.labels ?? ['recorded'],
      ...(requires.length > 0 && { requires }),
      ...(Object.keys(this.vars).length > 0 && { vars: this.vars }),
      ...(this.fixtures && { fixtures: this.fixtures }),
      steps: this.steps,
    }
  }

  stepId(): string {
    return `s${this.#next++}`
  }

  add(exchange: Exchange): void {
    this.exchanges++
    // The upstream gave no answer (too large, broken off, unreachable): nothing to replay.
    if (exchange.refused !== undefined) {
      this.refused++
      return
    }
    const path = exchange.target.split('?')[0]!
    if (!path.startsWith(CONTROL_PREFIX)) {
      this.hasRequests = true
      return this.requestStep(exchange)
    }
    const body = (jsonBody(exchange.requestBody) ?? {}) as Json
    const ok = exchange.status < 300
    if (path === cloudPath('instances') && exchange.method === 'POST' && ok) return this.cloudCreate('cloud.createInstance', exchange, body)
    if (path === cloudPath('principals') && exchange.method === 'POST' && ok) return this.cloudCreate('cloud.createPrincipal', exchange, body)
    const cloud = path.startsWith(CLOUD_MOUNT) ? path.slice(CLOUD_MOUNT.length) : ''
    const state = /^instances\/([^/]+)\/state$/.exec(cloud)
    if (state && exchange.method === 'POST' && ok) {
      this.steps.push({ 'cloud.setInstanceState': { instance_id: this.refs.template(decodeOrKeep(state[1]!)), state: body.state } })
      return
    }
    const principal = /^principals\/(.+)$/.exec(cloud)
    if (principal && exchange.method === 'DELETE' && ok) {
      this.steps.push({ 'cloud.deletePrincipal': this.refs.template(decodeOrKeep(principal[1]!)) })
      return
    }
    if (path === cloudPath('identity-document') && exchange.method === 'POST' && ok) return this.identityDocument(exchange, body)
    if (path === controlPath('fixtures') && exchange.method === 'POST' && ok) return this.addFixtures(exchange.requestBody.toString('utf8'))
    if (path === controlPath('clock') && exchange.method === 'POST' && ok && body.advance !== undefined) {
      this.steps.push({ 'clock.advance': body.advance })
      return
    }
    this.skipped++
  }

  /** An instance or principal of the fake cloud: created afresh, its generated fields captured. */
  cloudCreate(action: 'cloud.createInstance' | 'cloud.createPrincipal', exchange: Exchange, body: Json): void {
    this.usesCloud = true
    const id = this.stepId()
    const args: Json = { ...body }
    // A name given by the client would collide on a second replay against the same server.
    const renamed = typeof args.name === 'string' ? `${literalText(args.name)}-\${{ run.id }}` : undefined
    if (renamed !== undefined) this.refs.add(args.name as string, { template: renamed })
    if (action === 'cloud.createInstance') delete args.instance_id
    const created = (jsonBody(exchange.responseBody) ?? {}) as Json
    const capture: Record<string, string> = {}
    for (const [key, value] of Object.entries(created)) {
      if (typeof value !== 'string' || Object.hasOwn(body, key) || !isIdLike(value) || volatility(key, value) === 'time') continue
      capture[key] = formatJsonPath([key])
      this.refs.add(value, { template: `\${{ steps.${id}.${key} }}`, sameAs: `steps.${id}.${key}` })
    }
    if (action === 'cloud.createPrincipal') {
      capture.principal = '$'
      if (typeof created.access_key_id === 'string') this.principals.set(created.access_key_id, id)
    }
    const written = this.refs.templateJson(args) as Json
    if (renamed !== undefined) written.name = renamed
    this.steps.push({ id, [action]: written, capture })
  }

  /** A signed document: fetched again on replay; every form a login sends it in maps to a capture. */
  identityDocument(exchange: Exchange, body: Json): void {
    this.usesCloud = true
    const id = this.stepId()
    const format = typeof body.format === 'string' ? body.format : 'rsa2048'
    const value = (jsonBody(exchange.responseBody) as { value?: unknown } | undefined)?.value
    const capture: Record<string, string> = { value: '$.value' }
    if (typeof value === 'string') {
      this.refs.add(value, { template: `\${{ steps.${id}.value }}` })
      if (format === 'document') {
        capture.identity = '$.identity'
        this.refs.add(Buffer.from(value).toString('base64'), { template: `\${{ steps.${id}.identity }}` })
      } else {
        capture.signed = `$.${format}`
        this.refs.add(value.replace(/\r?\n/g, ''), { template: `\${{ steps.${id}.signed }}` })
      }
    }
    this.steps.push({ id, 'cloud.identityDocument': { instance_id: this.refs.template(String(body.instance_id)), format }, capture })
  }

  addFixtures(text: string): void {
    let fixture: unknown
    try {
      fixture = parseYaml(text)
    } catch {
      this.skipped++
      return
    }
    if (!fixture || typeof fixture !== 'object') return
    const renamed = this.renameOrganizations(fixture as Json)
    this.fixtures = mergeFixtures(this.fixtures ?? {}, this.secrets(this.refs.templateJson(renamed)) as Json)
  }

  /** Registry organisations get a per-run name: modules in them would collide on a second replay. */
  renameOrganizations(fixture: Json): Json {
    const registry = fixture.registry as Json | undefined
    for (const organization of (registry?.organizations as unknown[] | undefined) ?? []) {
      const name = typeof organization === 'string' ? organization : (organization as Json | null)?.name
      if (typeof name === 'string') this.refs.add(name, { template: `${literalText(name)}-\${{ run.id }}` })
    }
    return fixture
  }

  requestStep(exchange: Exchange): void {
    const [rawPath, query] = splitTarget(exchange.target)
    const role = roleOfPath(rawPath)
    if (role !== undefined) this.startingRole(exchange, decodeOrKeep(role))
    const id = this.stepId()
    const json = jsonBody(exchange.requestBody)
    const mount = splitMountPath(rawPath)?.mount
    // The mount's name shows in answers too (`display_name`, `path`); replays run on their own mount.
    if (mount !== undefined && this.templatesMount(mount)) this.refs.add(decodeOrKeep(mount), { template: '${{ target.mount }}' })
    const path = this.templatePath(rawPath)
    const request: Json = { method: exchange.method, path }
    if (query !== undefined) request.path = `${path}?${this.secretPairs(query)}`
    if (/^\/(api\/|\.well-known\/|_archivist\/)/.test(rawPath)) request.service = 'registry'

    const headers: Json = {}
    let sentToken = false
    for (const [name, value] of exchange.requestHeaders) {
      const lower = name.toLowerCase()
      if (TRANSPORT_HEADERS.has(lower)) continue
      if (TOKEN_HEADERS.has(lower)) {
        sentToken = true
        const bearer = /^Bearer\s+/i.exec(value)
        const token = bearer ? value.slice(bearer[0].length) : value
        const ref = this.refs.get(token)
        // A token the session obtained is a capture; any other is the target's own token, also where an
        // answer echoes it (a short one such as `root` is also a word: policies, display names).
        if (ref) headers[name] = bearer ? `Bearer ${ref.template}` : ref.template
        else if (token.length >= 8) this.refs.add(token, { template: '${{ target.token }}' })
        continue
      }
      if (SECRET_HEADERS.has(lower)) {
        headers[name] = this.refs.get(value)?.template ?? this.secretVar(lower, value)
        continue
      }
      if (lower === 'content-type' && json !== undefined && /^application\/json\b/.test(value)) continue
      headers[name] = this.refs.template(value)
    }
    if (Object.keys(headers).length > 0) request.headers = headers
    if (!sentToken) request.token = false

    if (json !== undefined && exchange.requestBody.length > 0) {
      const isLogin = /\/login$/.test(rawPath) && json && typeof json === 'object' && !Array.isArray(json)
      if (isLogin && typeof (json as Json).pkcs7 === 'string') this.unseenInstance((json as Json).pkcs7 as string)
      const templated = this.refs.templateJson(json) as Json
      request.json = this.secrets(isLogin && 'iam_request_headers' in (json as Json) ? this.iamLogin(json as Json, templated) : templated)
    } else if (exchange.requestBody.length > 0) {
      const text = exchange.requestBody.toString('utf8')
      const form = /^application\/x-www-form-urlencoded\b/i.test(header(exchange.requestHeaders, 'content-type') ?? '')
      if (isText(exchange.requestBody)) request.body = form ? this.secretPairs(text) : this.refs.template(text)
      else request.bodyBase64 = exchange.requestBody.toString('base64')
    }
    const { expect, capture } = expectationOf(exchange, id, this.refs)
    this.steps.push({ id, request, expect, ...(Object.keys(capture).length > 0 && { capture }) })
  }

  /** A role read before the session wrote it was there at the start: it joins the fixture (unless the scenario restores a snapshot). */
  startingRole(exchange: Exchange, name: string): void {
    const first = !this.#rolesSeen.has(name)
    this.#rolesSeen.add(name)
    const data = (jsonBody(exchange.responseBody) as { data?: unknown } | undefined)?.data
    if (!first || exchange.method !== 'GET' || exchange.status !== 200 || this.options.startingState !== undefined || !isObject(data)) return
    this.fixtures = mergeFixtures(this.fixtures ?? {}, { auth: { roles: { [literalText(name)]: this.refs.templateJson(roleFixture(data)) } } })
  }

  /**
   * An iam login carries a SigV4 signature that expires and names the signer's key: when the session
   * created that principal, a `cloud.signedCallerIdentity` step signs afresh for the replay.
   */
  iamLogin(body: Json, templated: Json): Json {
    const signing = iamSigning(body)
    const principal = signing && this.principals.get(signing.accessKeyId)
    if (!signing || !principal) return templated
    const id = this.stepId()
    const args: Json = {
      principal: `\${{ steps.${principal}.principal }}`,
      ...(signing.serverId !== undefined && { serverId: signing.serverId }),
      ...(signing.region !== undefined && { region: signing.region }),
      ...(signing.method === 'GET' && { method: 'GET' }),
    }
    this.steps.push({ id, 'cloud.signedCallerIdentity': args, capture: { iam: '$' } })
    const out: Json = { ...templated }
    for (const field of IAM_FIELDS) if (field in out) out[field] = `\${{ steps.${id}.iam.${field} }}`
    return out
  }

  /**
   * A `pkcs7` the session did not fetch (a real instance's): a fake-cloud instance with its document's
   * image, account and region, and a fresh RSA-2048 document of it, stand in for the instance on replay.
   */
  unseenInstance(pkcs7: string): void {
    if (this.refs.get(pkcs7)) return
    const document = documentInPkcs7(pkcs7)
    if (!document) return
    this.usesCloud = true
    const instance = this.stepId()
    const args: Json = { ami_id: document.imageId, ...(document.accountId && { account_id: document.accountId }), ...(document.region && { region: document.region }) }
    this.steps.push({ id: instance, 'cloud.createInstance': args, capture: { instance_id: '$.instance_id' } })
    this.refs.add(document.instanceId, { template: `\${{ steps.${instance}.instance_id }}`, sameAs: `steps.${instance}.instance_id` })
    const signed = this.stepId()
    this.steps.push({ id: signed, 'cloud.identityDocument': { instance_id: `\${{ steps.${instance}.instance_id }}`, format: 'rsa2048' }, capture: { signed: '$.rsa2048' } })
    this.refs.add(pkcs7, { template: `\${{ steps.${signed}.signed }}` })
  }

  /**
   * Whether a recorded mount becomes `${{ target.mount }}` (a fresh mount per run on a shared server): not
   * the token store, and not when the scenario restores the upstream's state, which holds the mount itself.
   */
  templatesMount(mount: string): boolean {
    return mount !== 'token' && this.options.startingState === undefined
  }

  /**
   * `/v1/auth/<mount>/…` → `/v1/auth/${{ target.mount }}/…` (the token store is not a mount of the
   * method); recorded values in the rest of the path become their templates.
   */
  templatePath(rawPath: string): string {
    const split = splitMountPath(rawPath)
    if (!split || !this.templatesMount(split.mount)) return this.refs.template(rawPath)
    return mountPath('${{ target.mount }}') + this.refs.template(split.rest)
  }

  /** Secret request fields (at any depth) become vars read from the environment at replay; the value is never written. */
  secrets(value: unknown): unknown {
    if (Array.isArray(value)) return value.map((item) => this.secrets(item))
    if (!value || typeof value !== 'object') return value
    // Built from entries: a `__proto__` key of the recorded body stays an own key.
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => {
        // A secret given as an object or a list (an iam login's signed headers, which the login also takes as
        // JSON text) is one var holding its JSON: none of its values is written.
        if (SECRET_KEYS.test(key) && item !== null && typeof item === 'object') return [key, this.secretVar(key, JSON.stringify(item))]
        if (!(SECRET_KEYS.test(key) && typeof item === 'string' && item !== '' && !item.startsWith('${{'))) return [key, this.secrets(item)]
        return [key, this.secretVar(key, item)]
      }),
    )
  }

  /** A query string or form body with its secret parameters as vars (or the capture that produced them). */
  secretPairs(pairs: string): string {
    return redactPairs(
      pairs,
      (text) => this.refs.template(text),
      (name, value) => {
        const template = this.secretVar(name, value)
        // Sent encoded, as recorded: the value is the expression's, piped through `urlencode`.
        const expression = /^\$\{\{ (.+) \}\}$/.exec(template)?.[1]
        return expression === undefined ? template : `\${{ ${expression} | urlencode }}`
      },
    )
  }

  /** `${{ vars.<name> }}` for a secret value, read from `DOPPEL_SECRET_<NAME>` at replay; one var per value. */
  secretVar(name: string, value: string): string {
    if (value === '') return ''
    const known = this.refs.get(value)
    if (known) return known.template
    const base = secretVarName(name)
    let key = base
    for (let n = 2; Object.hasOwn(this.vars, key); n++) key = `${base}_${n}`
    // Without the variable, a stand-in that fixtures accept (a registry token must not be empty) and the
    // steps that send the secret send alike.
    this.vars[key] = `\${{ env.${secretEnvName(key)} || 'redacted-${key}' }}`
    const template = `\${{ vars.${key} }}`
    // An answer that echoes it (an access key read back) must not write it either.
    this.refs.add(value, { template })
    return template
  }
}


/** Ids, keys and names the fake cloud generated (not words like `running`). */
function isIdLike(value: string): boolean {
  return value.length >= 8 && /[0-9]/.test(value)
}

function splitTarget(target: string): [string, string | undefined] {
  const at = target.indexOf('?')
  return at === -1 ? [target, undefined] : [target.slice(0, at), target.slice(at + 1)]
}

function mergeFixtures(into: Json, add: Json): Json {
  const out: Json = { ...into }
  for (const [key, value] of Object.entries(add)) {
    const existing = ownEntry(out, key)
    const merged = Array.isArray(existing) && Array.isArray(value) ? [...existing, ...value] : isObject(existing) && isObject(value) ? mergeFixtures(existing, value) : value
    // Defined, not assigned: a `__proto__` key stays an own key.
    Object.defineProperty(out, key, { value: merged, enumerable: true, writable: true, configurable: true })
  }
  return out
}

function isObject(value: unknown): value is Json {
  return !!value && typeof value === 'object' && !Array.isArray(value)
}
