import aws4 from 'aws4'
import { amzDate, BASE } from '../cloud-auth/login-setup.ts'
import { JSON_API } from '../registry/registry-client.ts'
import { ACCOUNT, STS_ACCOUNT, type RobustWorld } from './robust-world.ts'
import { routeInventory, routeKey, type RouteRow } from './route-inventory.ts'

/**
 * The bad-input corpus: one or more endpoints per route of the route inventory (every route doppel
 * declares), each a builder of requests that carry one bad value. What a route's row says is derived:
 * its URL, error family, headers, body limit, whether it refuses an empty body, bad names in each path
 * value, bad `?list=` flags. What cannot be derived (valid values, which field takes which kind of bad
 * value) is the hand table `HAND`, keyed by route; `corpusCoverage` reports the routes the corpus misses.
 */

/** Which error body an answer must carry. */
export type Family = 'auth' | 'registry' | 'registry-v1' | 'control' | 'aws' | 'ec2' | 'imds'

/** The kinds of bad value an endpoint can be given (see bad-inputs.ts). */
export type ValueKind = 'types' | 'base64' | 'pkcs7' | 'archive' | 'sigv4' | 'name' | 'text'

export interface Probe {
  method: string
  url: string
  headers: Record<string, string>
  body?: BodyInit
}

export interface Endpoint {
  label: string
  /** The route's key in the inventory (`METHOD path`), or undefined for a request to no route. */
  route: string | undefined
  family: Family
  /** A write of this endpoint with the given raw body; absent on endpoints that take no body. */
  send?: (body: BodyInit) => Probe
  /** Whether malformed JSON is refused (bodies the endpoint ignores or reads as form data are not). */
  json?: boolean
  /** Whether an empty body is refused (elsewhere it means "no data", which is valid). */
  emptyIsBad?: boolean
  /** Body size limit: one byte more answers 413. */
  limit?: number
  /** A request carrying one bad value of each kind this endpoint takes. */
  takes: Partial<Record<ValueKind, (value: string) => Probe | undefined>>
}

type Takes = Endpoint['takes']

const ROOT = { 'X-Service-Token': 'root', 'Content-Type': 'application/json' }
const V2 = { Authorization: 'Bearer root', 'Content-Type': JSON_API }
const JSON_HEADERS = { 'Content-Type': 'application/json' }
const WRITES = new Set(['POST', 'PUT', 'PATCH'])

const probe = (method: string, url: string, headers: Record<string, string>, body?: BodyInit): Probe => ({
  method,
  url,
  headers,
  ...(body !== undefined && { body }),
})
const json = (value: unknown) => JSON.stringify(value)
/** Form/query encoding that survives lone surrogates (they become U+FFFD, as in any real client). */
const formEncode = (value: string) => new URLSearchParams({ v: value }).toString().slice(2)
/** Header values are bytes: text a client cannot put in a header never reaches the service. */
const headerSafe = (value: string) => /^[\x20-\x7e\x80-\xff]*$/.test(value)

/** One route as the hand table sees it: its row, and requests built from it with valid path values. */
interface Route {
  row: RouteRow
  /** The route's URL, with `values` over the valid path values. */
  url(values?: Record<string, string>): string
  /** A request of the route's method and headers. */
  probe(body?: BodyInit, values?: Record<string, string>): Probe
}

/** What the row does not say: valid values, and which field takes which kind of bad value. */
interface Hand {
  /** Names an entry when a route has more than one. */
  variant?: string
  /** Path values of the requests, over `validValues`. */
  values?: Record<string, string>
  /** The valid body the `name` probes send with a bad path value. */
  body?: string
  /** Which path value takes the bad names (the last unless said); false where a bad name is not bad input. */
  nameAt?: string | false
  json?: boolean
  emptyIsBad?: boolean
  /** The route reads no body, though its method could carry one. */
  ignoresBody?: boolean
  takes?: Takes
}

/** A route's hand entry: one or more `Hand`s, or why no bad input applies to it. */
type HandEntry = (route: Route, world: () => RobustWorld) => Hand | Hand[] | { none: string }

/** Valid path values by placeholder name (a path value with no entry here is `x`). */
function validValues(world: () => RobustWorld): Record<string, () => string> {
  return {
    role: () => 'web-role',
    cert_name: () => 'c2',
    account_id: () => STS_ACCOUNT,
    role_tag: () => encodeURIComponent(world().deniedTag),
    instance_id: () => world().instance.instance_id,
    path: () => 'other',
    org: () => 'acme',
    namespace: () => 'acme',
    name: () => 'vpc',
    provider: () => 'aws',
    version: () => '1.0.0',
    object: () => world().uploadObject,
    id: () => world().instance.instance_id,
  }
}

/** The placeholders of a template: `{name}`, `:name`, and a trailing `*` (named `*`). */
const PLACEHOLDER = /\{(\w+)\}|:(\w+)|\*$/g
const placeholders = (path: string) => [...path.matchAll(PLACEHOLDER)].map((match) => match[1] ?? match[2] ?? '*')

function familyOf(row: RouteRow): Family {
  switch (row.service) {
    case 'cloud-auth':
      return 'auth'
    case 'registry':
      return row.path.startsWith('/api/registry/v1/') ? 'registry-v1' : 'registry'
    case 'control':
      return 'control'
    case 'fake-cloud':
      return row.path.includes('/imds/') ? 'imds' : row.path.includes('/ec2?') ? 'ec2' : 'aws'
  }
}

function headersOf(row: RouteRow, family: Family): Record<string, string> {
  if (family === 'auth') return ROOT
  if (family === 'registry-v1') return { Authorization: 'Bearer root' }
  if (row.path.startsWith('/_archivist/')) return row.method === 'PUT' ? { 'Content-Type': 'application/octet-stream' } : {}
  if (family === 'registry') return row.path.startsWith('/api/v2/') ? V2 : {}
  return WRITES.has(row.method) ? JSON_HEADERS : {}
}

function routeOf(row: RouteRow, world: () => RobustWorld): Route {
  const valid = validValues(world)
  const headers = headersOf(row, familyOf(row))
  const url = (values: Record<string, string> = {}) =>
    BASE + row.path.replace(PLACEHOLDER, (_, brace?: string, colon?: string) => {
      const name = brace ?? colon ?? '*'
      return values[name] ?? valid[name]?.() ?? 'x'
    })
  const method = row.method === 'LIST' ? 'GET' : row.method
  return { row, url, probe: (body, values) => probe(method, url(values), headers, body) }
}

/** A bad name in the path value `at`, the others valid. */
const badNameAt = (route: Route, hand: Hand, at: string) => (name: string) => route.probe(hand.body, { ...hand.values, [at]: name })

/**
 * What every route gets from its row alone: the hand's endpoint with bad names in the last path value, and
 * one more endpoint per other path value with bad names there.
 */
function derived(route: Route, hand: Hand): Endpoint[] {
  const { row } = route
  const label = `${row.service} ${routeKey(row)}${hand.variant ? ` (${hand.variant})` : ''}`
  const family = familyOf(row)
  const names = placeholders(row.path)
  const nameAt = hand.nameAt ?? names.at(-1)
  const others = hand.nameAt === false ? [] : names.filter((name) => name !== nameAt)
  const elsewhere = others.map(
    (at): Endpoint => ({ label: `${label} (bad ${at})`, route: routeKey(row), family, takes: { name: badNameAt(route, hand, at) } }),
  )
  return [endpointOf(route, hand, label, family, nameAt || undefined), ...elsewhere]
}

function endpointOf(route: Route, hand: Hand, label: string, family: Family, nameAt: string | undefined): Endpoint {
  const { row } = route
  const takes: Takes = {}
  if (nameAt) takes.name = badNameAt(route, hand, nameAt)
  // The auth method's HTTP layer reads `?list=` of any GET as a Go bool before routing (docs/reference/cloud-auth.md §1.1);
  // the rows that read the request themselves (the token store's own routes) are answered before it.
  if (family === 'auth' && (row.method === 'GET' || row.method === 'LIST') && !row.readsRequest) {
    takes.text = (value) => ({ ...route.probe(), url: `${route.url(hand.values).replace(/\/$/, '')}?list=${formEncode(value)}` })
  }
  return {
    label,
    route: routeKey(row),
    family,
    ...(row.limit !== undefined && !hand.ignoresBody && {
      send: (body: BodyInit) => route.probe(body, hand.values),
      limit: row.limit,
      json: hand.json ?? true,
    }),
    emptyIsBad: hand.emptyIsBad ?? row.bodyRequired ?? false,
    takes: { ...takes, ...hand.takes },
  }
}

/** Whether an endpoint has any bad input to give. */
const takesInput = (endpoint: Endpoint) => endpoint.send !== undefined || Object.keys(endpoint.takes).length > 0

/** A SigV4-signed query-protocol request to the fake cloud (aws4, the emulator's clock). */
function signed(world: () => RobustWorld, service: string, params: string): Probe {
  const host = awsHost(service)
  const request = {
    host,
    path: '/',
    method: 'POST',
    service,
    region: 'us-east-1',
    body: params,
    headers: { 'Content-Type': 'application/x-www-form-urlencoded; charset=utf-8', 'X-Amz-Date': amzDate(world().doppel.clock.now()) } as Record<
      string,
      string
    >,
  }
  const { alice } = world()
  aws4.sign(request, { accessKeyId: alice.access_key_id, secretAccessKey: alice.secret_access_key })
  const headers: Record<string, string> = {}
  for (const [key, value] of Object.entries(request.headers)) if (key.toLowerCase() !== 'host') headers[key] = String(value)
  return probe('POST', `https://${host}/`, headers, params)
}

const awsHost = (service: string) => (service === 'ec2' ? 'ec2.us-east-1.amazonaws.com' : `${service}.amazonaws.com`)
const QUERY_ROUTE = /^\/_doppel\/cloud\/(sts|iam|ec2)\?Action=(\w+)$/
const API_VERSIONS: Record<string, string> = { sts: '2011-06-15', iam: '2010-05-08', ec2: '2016-11-15' }

/** A query action of the fake cloud, sent to its AWS host: unsigned bodies, broken signatures, and `param`'s bad names and texts. */
function queryAction(row: RouteRow, world: () => RobustWorld, hand: { variant?: string; param?: (value: string) => string }): Endpoint {
  const [, service, action] = QUERY_ROUTE.exec(row.path)!
  const base = `Action=${action}&Version=${API_VERSIONS[service!]}`
  const withParam = (value: string) => signed(world, service!, `${base}&${hand.param!(value)}`)
  return {
    label: `${service} ${action}${hand.variant ? ` (${hand.variant})` : ''}`,
    route: routeKey(row),
    family: familyOf(row),
    // Unsigned, whatever the body: the fake refuses it before reading any parameter.
    send: (body) => probe('POST', `https://${awsHost(service!)}/`, { 'Content-Type': 'application/x-www-form-urlencoded' }, body),
    json: true,
    limit: row.limit!,
    takes: {
      sigv4: (authorization) => {
        const good = signed(world, service!, base)
        return { ...good, headers: { ...good.headers, Authorization: authorization } }
      },
      ...(hand.param && { name: withParam, text: (value: string) => withParam(formEncode(value)) }),
    },
  }
}

/** The query actions' parameters that take bad names and texts. */
const QUERY_PARAMS: Record<string, { variant?: string; param?: (value: string) => string }[]> = {
  'sts?Action=GetCallerIdentity': [{}],
  'sts?Action=AssumeRole': [{ param: (value) => `RoleArn=${value}&RoleSessionName=s` }],
  'iam?Action=GetUser': [{ param: (value) => `UserName=${value}` }],
  'iam?Action=GetRole': [{ param: (value) => `RoleName=${value}` }],
  'iam?Action=GetInstanceProfile': [{ param: (value) => `InstanceProfileName=${value}` }],
  'iam?Action=ListAccessKeys': [{ param: (value) => `UserName=${value}` }],
  'iam?Action=CreateAccessKey': [{ param: (value) => `UserName=${value}` }],
  'iam?Action=DeleteAccessKey': [{ param: (value) => `AccessKeyId=${value}` }],
  'ec2?Action=DescribeInstances': [
    { variant: 'InstanceId', param: (value) => `InstanceId.1=${value}` },
    { variant: 'MaxResults', param: (value) => `MaxResults=${value}` },
  ],
}

/** A body with `value` standing raw (unquoted) at `key` of `rest`'s JSON: the wrong-type probes. */
const rawAt = (key: string, rest: Record<string, unknown> = {}) => (value: string) =>
  json({ ...rest, [key]: '\u0000' }).replace('"\\u0000"', value)

/** Type and text probes of one JSON field of a write: a wrong-typed value, and each bad text. */
function field(route: Route, key: string, rest: Record<string, unknown> = {}, values?: Record<string, string>): Takes {
  return {
    types: (value) => route.probe(rawAt(key, rest)(value), values),
    text: (value) => route.probe(json({ ...rest, [key]: value }), values),
  }
}

/** A token header of the token store's own routes: a bad token answers 403. */
const badToken = (route: Route): Takes => ({
  text: (value) => (headerSafe(value) ? { ...route.probe(), headers: { ...ROOT, 'X-Service-Token': value } } : undefined),
})

const AUTH = '/v1/auth/cloud'
const MODULE = '/api/v2/organizations/{org}/registry-modules/private/{namespace}/{name}/{provider}'
const TIDY_LISTS = ['roletag-denylist', 'roletag-blacklist', 'identity-accesslist', 'identity-whitelist']
const DENY_LISTS = ['roletag-denylist', 'roletag-blacklist']

const READ_ONLY = { none: 'a read without path values, query or body: there is no value to give' }
const NO_INPUT = { none: 'an action without path values or body: there is no value to give' }

/**
 * The hand table, by route key: what cannot be derived. Routes whose derived probes suffice (reads and
 * deletes by name, `?list=` reads) have no entry; a route nothing can be given says why.
 */
const HAND: Record<string, HandEntry> = {
  // The auth service: login, in its three flows.
  [`POST ${AUTH}/login`]: (route, world) => {
    const login = (fields: Record<string, unknown>) => route.probe(json(fields))
    const iamHeaders = (authorization: string) => {
      const payload = world().iamLogin()
      const headers = JSON.parse(Buffer.from(payload.iam_request_headers!, 'base64').toString()) as Record<string, string>
      headers.Authorization = authorization
      return { ...payload, iam_request_headers: Buffer.from(json(headers)).toString('base64') }
    }
    return [
      {
        variant: 'pkcs7',
        emptyIsBad: true,
        takes: {
          types: (value) => route.probe(`{"role":${value},"pkcs7":${value},"nonce":${value}}`),
          base64: (value) => login({ role: 'web-role', pkcs7: value }),
          pkcs7: (value) => login({ role: 'web-role', pkcs7: value, nonce: 'another-nonce' }),
          sigv4: (value) => login(iamHeaders(value)),
          text: (value) => login({ role: value, pkcs7: world().pkcs7 }),
        },
      },
      {
        variant: 'identity + signature',
        takes: {
          base64: (value) => login({ role: 'web-role', identity: value, signature: value }),
          pkcs7: (value) => login({ role: 'web-role', identity: Buffer.from('{"instanceId":"i-1"}').toString('base64'), signature: value }),
        },
      },
      {
        variant: 'iam',
        takes: {
          base64: (value) => login({ ...world().iamLogin(), iam_request_url: value }),
          types: (value) => route.probe(`{"role":"alice-role","iam_http_request_method":${value},"iam_request_url":${value}}`),
          text: (value) => login({ ...world().iamLogin(), iam_http_request_method: value }),
        },
      },
    ]
  },
  // The auth service: management writes.
  [`POST ${AUTH}/role/{role}`]: (route) => [
    {
      variant: 'new role',
      values: { role: 'fresh' },
      body: json({ auth_type: 'ec2', bound_ami_id: 'ami-1' }),
      emptyIsBad: true,
      takes: {
        types: (value) => route.probe(rawAt('ttl', { auth_type: 'ec2', bound_ami_id: 'ami-1' })(value), { role: 'fresh' }),
        text: (value) => route.probe(json({ auth_type: value, bound_ami_id: 'ami-1' }), { role: 'fresh' }),
      },
    },
    {
      variant: 'existing role',
      nameAt: false,
      takes: {
        types: (value) => route.probe(rawAt('policies', { bound_ami_id: 'ami-1' })(value)),
        text: (value) => route.probe(json({ inferred_entity_type: value })),
      },
    },
  ],
  [`POST ${AUTH}/role/{role}/tag`]: (route) => ({
    values: { role: 'tagged' },
    takes: {
      types: (value) => route.probe(rawAt('max_ttl')(value), { role: 'tagged' }),
      text: (value) => route.probe(json({ instance_id: 'i-1', max_ttl: value }), { role: 'tagged' }),
    },
  }),
  [`POST ${AUTH}/config/client`]: (route) => ({ takes: field(route, 'max_retries') }),
  [`POST ${AUTH}/config/identity`]: (route) => ({ takes: field(route, 'iam_alias') }),
  [`POST ${AUTH}/config/certificate/{cert_name}`]: (route, world) => ({
    emptyIsBad: true,
    get body() {
      return json({ aws_public_cert: world().cloud.builtInCertificates().pkcs7[0] })
    },
    takes: {
      types: (value) => route.probe(rawAt('aws_public_cert')(value)),
      base64: (value) => route.probe(json({ aws_public_cert: value })),
      text: (value) => route.probe(json({ aws_public_cert: 'x', type: value })),
    },
  }),
  [`POST ${AUTH}/config/sts/{account_id}`]: (route) => ({
    // An account with no STS role yet: an empty write to a configured one changes nothing and answers 204.
    values: { account_id: '111122223333' },
    emptyIsBad: true,
    body: json({ sts_role: `arn:aws:iam::${ACCOUNT}:role/x` }),
    takes: { types: (value) => route.probe(rawAt('sts_role')(value)) },
  }),
  ...Object.fromEntries(
    TIDY_LISTS.flatMap((list): [string, HandEntry][] => [
      [`POST ${AUTH}/config/tidy/${list}`, (route) => ({ takes: field(route, 'safety_buffer') })],
      [`DELETE ${AUTH}/config/tidy/${list}`, () => NO_INPUT],
      [`POST ${AUTH}/tidy/${list}`, (route) => ({ takes: field(route, 'safety_buffer') })],
    ]),
  ),
  ...Object.fromEntries(
    DENY_LISTS.flatMap((list): [string, HandEntry][] => [
      [`POST ${AUTH}/${list}/{role_tag}`, (route) => ({ takes: { base64: (tag) => route.probe(undefined, { role_tag: tag }) } })],
      [`DELETE ${AUTH}/${list}/{role_tag}`, () => ({ none: 'a role tag is any text, and deleting one that is not listed is a no-op (204), as Vault answers' })],
    ]),
  ),
  [`DELETE ${AUTH}/config/client`]: () => NO_INPUT,
  'POST /v1/sys/auth/{path}': (route) => ({
    emptyIsBad: true,
    // A bad mount path with a valid body would enable a mount: bad input goes into the body.
    nameAt: false,
    takes: field(route, 'type'),
  }),
  'DELETE /v1/sys/auth/{path}': () => ({ none: 'disabling a path that is no mount is a no-op (204), as Vault answers' }),
  // Any path is a prefix (one nothing is under revokes nothing, 204, as Vault answers): bad input goes into the body.
  ...Object.fromEntries(
    ['/v1/sys/leases/', '/v1/sys/'].flatMap((base): [string, HandEntry][] => [
      [`POST ${base}revoke-prefix/{prefix}`, (route) => ({ nameAt: false, takes: field(route, 'sync') })],
      [`POST ${base}revoke-force/{prefix}`, (route) => ({ nameAt: false, takes: { types: field(route, 'prefix').types } })],
    ]),
  ),
  // The token store's own routes: a bad token, and a body only renew-self reads.
  'GET /v1/auth/token/lookup-self': (route) => ({ takes: badToken(route) }),
  'POST /v1/auth/token/lookup-self': (route) => ({ ignoresBody: true, takes: badToken(route) }),
  'POST /v1/auth/token/renew-self': (route) => ({ takes: badToken(route) }),
  'POST /v1/auth/token/revoke-self': (route) => ({ takes: badToken(route) }),

  // The registry.
  'GET /.well-known/terraform.json': () => READ_ONLY,
  'GET /api/v2/ping': () => READ_ONLY,
  'POST /api/v2/organizations/{org}/registry-modules': (route) => {
    const module = (name: string) => ({ data: { type: 'registry-modules', attributes: { name, provider: 'aws', 'registry-name': 'private' } } })
    return {
      emptyIsBad: true,
      body: json(module('x')),
      takes: {
        types: (value) => route.probe(json(module('\u0000')).replace('"\\u0000"', value)),
        text: (value) => route.probe(json(module(value))),
      },
    }
  },
  ...Object.fromEntries(
    [`${MODULE}/versions`, '/api/v2/registry-modules/{namespace}/{name}/{provider}/versions'].map((path): [string, HandEntry] => [
      `POST ${path}`,
      (route) => {
        const version = (value: string) => ({ data: { type: 'registry-module-versions', attributes: { version: value } } })
        return {
          emptyIsBad: true,
          nameAt: 'name',
          body: json(version('3.0.0')),
          takes: {
            types: (value) => route.probe(json(version('\u0000')).replace('"\\u0000"', value)),
            text: (value) => route.probe(json(version(value))),
          },
        }
      },
    ]),
  ),
  [`PATCH ${MODULE}/{version}`]: (route) => {
    const deprecation = (status: unknown, reason?: unknown) => ({
      data: { type: 'module-versions', attributes: { deprecation: { 'deprecated-status': status, ...(reason !== undefined && { reason }) } } },
    })
    return {
      emptyIsBad: true,
      body: json(deprecation('Deprecated')),
      takes: {
        types: (value) => route.probe(json(deprecation('\u0000', '\u0000')).replaceAll('"\\u0000"', value)),
        text: (value) => route.probe(json(deprecation(value))),
      },
    }
  },
  [`GET ${MODULE}/version`]: (route) => ({
    nameAt: false,
    takes: { name: (name) => ({ ...route.probe(), url: `${route.url()}?module_version=${name}` }) },
  }),
  // Deletes read (and bound) a body but need none: only names and size apply, on a module that is not there.
  ...Object.fromEntries(
    [
      `DELETE ${MODULE}`,
      `DELETE ${MODULE}/{version}`,
      'DELETE /api/v2/organizations/{org}/registry-modules/private/{namespace}/{name}',
      'POST /api/v2/registry-modules/actions/delete/{namespace}/{name}/{provider}/{version}',
      'POST /api/v2/registry-modules/actions/delete/{namespace}/{name}/{provider}',
      'POST /api/v2/registry-modules/actions/delete/{namespace}/{name}',
    ].map((key): [string, HandEntry] => [key, (route) => ({ json: false, values: { [placeholders(route.row.path).at(-1)!]: 'no-such-thing' } })]),
  ),
  'PUT /_archivist/v1/object/{object}': (route) => ({
    emptyIsBad: true,
    body: 'x',
    takes: { archive: (value) => ({ ...route.probe(Buffer.from(value, 'base64')), headers: {} }) },
  }),

  // The control API.
  'GET /_doppel/health': () => READ_ONLY,
  'POST /_doppel/reset': () => NO_INPUT,
  'GET /_doppel/clock': () => READ_ONLY,
  'POST /_doppel/clock': (route) => ({
    emptyIsBad: true,
    takes: {
      types: (value) => route.probe(rawAt('advance')(value)),
      // A blank duration is zero, as everywhere durations are parsed: a valid no-op, not bad input.
      text: (value) => (value.trim() === '' ? undefined : route.probe(json({ advance: value }))),
    },
  }),
  'GET /_doppel/journal': () => READ_ONLY,
  'DELETE /_doppel/journal': () => NO_INPUT,
  'GET /_doppel/state': () => READ_ONLY,
  'GET /_doppel/snapshot': () => READ_ONLY,
  'POST /_doppel/faults': (route) => ({
    emptyIsBad: true,
    takes: {
      types: (value) => route.probe(`{"path":${value},"status":${value}}`),
      text: (value) => route.probe(json({ path: '/x', latency_ms: value })),
    },
  }),
  'GET /_doppel/faults': () => READ_ONLY,
  'DELETE /_doppel/faults': () => NO_INPUT,
  'POST /_doppel/fixtures': (route) => ({
    takes: {
      types: (value) => route.probe(`{"version":1,"auth":{"roles":{"fixture-role":${value}}}}`),
      text: (value) => route.probe(json({ version: 1, registry: { organizations: [value] } })),
    },
  }),
  'POST /_doppel/registry/tokens': (route) => ({
    takes: { types: (value) => route.probe(rawAt('organizations')(value)), text: (value) => route.probe(json({ organizations: [value] })) },
  }),
  'POST /_doppel/registry/fixtures': (route) => ({
    takes: { types: (value) => route.probe(rawAt('modules')(value)), text: (value) => route.probe(json({ organizations: [value] })) },
  }),
  'GET /_doppel/cloud/instances': () => READ_ONLY,
  'POST /_doppel/cloud/instances': (route) => ({
    takes: { types: (value) => route.probe(`{"instance_id":${value},"tags":${value}}`), text: (value) => route.probe(json({ instance_id: value })) },
  }),
  'POST /_doppel/cloud/instances/:id/state': (route) => ({
    emptyIsBad: true,
    body: json({ state: 'stopped' }),
    takes: field(route, 'state'),
  }),
  'POST /_doppel/cloud/instances/:id/metadata-options': (route) => ({
    body: json({ instance_metadata_tags: 'enabled' }),
    takes: field(route, 'instance_metadata_tags'),
  }),
  'GET /_doppel/cloud/principals': () => READ_ONLY,
  'POST /_doppel/cloud/principals': (route) => ({ emptyIsBad: true, takes: field(route, 'name', { type: 'user' }) }),
  'GET /_doppel/cloud/consistency': () => READ_ONLY,
  'POST /_doppel/cloud/identity-document': (route) => ({ emptyIsBad: true, takes: field(route, 'instance_id') }),
  'POST /_doppel/cloud/use-instance': (route) => ({ emptyIsBad: true, takes: field(route, 'instance_id') }),
  'GET /_doppel/ui': () => READ_ONLY,
  'HEAD /_doppel/ui': () => READ_ONLY,
  'HEAD /_doppel/ui/*': () => ({ none: 'a HEAD answer has no body to check; GET of the same path runs the same handler' }),
  'GET /_doppel/tenants': () => READ_ONLY,
  'GET /_doppel/openapi.json': () => READ_ONLY,

  // The fake cloud's metadata service.
  'GET /_doppel/cloud/imds/:id/latest/*': (route) => ({
    nameAt: false,
    takes: { name: (name) => route.probe(undefined, { '*': `meta-data/${name}` }) },
  }),
  'PUT /_doppel/cloud/imds/:id/latest/api/token': (route) => ({
    nameAt: false,
    takes: { text: (value) => (headerSafe(value) ? { ...route.probe(), headers: { 'X-aws-ec2-metadata-token-ttl-seconds': value } } : undefined) },
  }),
}

/** Requests to no route at all: the router's own refusal. */
function beyondTheTables(): Endpoint[] {
  return [
    {
      label: 'control GET /_doppel/:unknown',
      route: undefined,
      family: 'control',
      // A traversal out of /_doppel/ is another route (the router's 404), not bad input to this one.
      takes: { name: (name) => (/^(\.\.|%2e%2e)\//i.test(name) ? undefined : probe('GET', `${BASE}/_doppel/${name}`, {})) },
    },
  ]
}

/** The corpus entries of one route, and why none apply when they do not. */
function entriesOf(row: RouteRow, world: () => RobustWorld): Endpoint[] | { none: string } {
  const key = routeKey(row)
  if (row.service === 'fake-cloud' && QUERY_ROUTE.test(row.path)) {
    const hands = QUERY_PARAMS[row.path.slice('/_doppel/cloud/'.length)] ?? [{}]
    return hands.map((hand) => queryAction(row, world, hand))
  }
  const route = routeOf(row, world)
  const hand = HAND[key]?.(route, world) ?? {}
  if ('none' in hand) return hand
  return (Array.isArray(hand) ? hand : [hand]).flatMap((one) => derived(route, one)).filter(takesInput)
}

/**
 * Every endpoint. `world` is asked for valid names and documents only when a request is built, so the
 * table (and the tests named from it) exists before the set-up runs.
 */
export function allEndpoints(world: () => RobustWorld): Endpoint[] {
  const endpoints = routeInventory().flatMap((row) => {
    const entries = entriesOf(row, world)
    return Array.isArray(entries) ? entries : []
  })
  return [...endpoints, ...beyondTheTables()]
}

/** Routes with no bad input and no reason why, and hand entries that name no route. */
export function corpusCoverage(world: () => RobustWorld): { uncovered: string[]; unknown: string[] } {
  const inventory = routeInventory()
  const uncovered = inventory.filter((row) => {
    const entries = entriesOf(row, world)
    return Array.isArray(entries) && entries.length === 0
  })
  const keys = new Set(inventory.map(routeKey))
  const queryKeys = new Set(inventory.filter((row) => QUERY_ROUTE.test(row.path)).map((row) => row.path.slice('/_doppel/cloud/'.length)))
  return {
    uncovered: uncovered.map(routeKey),
    unknown: [...Object.keys(HAND).filter((key) => !keys.has(key)), ...Object.keys(QUERY_PARAMS).filter((key) => !queryKeys.has(key))],
  }
}

/** One wrong-typed value in one declared field of a write. */
export interface FieldProbe {
  field: string
  probe: Probe
}

/** A value no field type converts (an object): every declared field of every auth write refuses it. */
const WRONG_TYPED = '{"deep":{"x":[1]}}'

/** Per auth write with declared fields, a request with `WRONG_TYPED` in each field in turn. */
export function fieldProbes(world: () => RobustWorld): { label: string; probes: () => FieldProbe[] }[] {
  return routeInventory()
    .filter((row) => row.service === 'cloud-auth' && row.fields !== undefined)
    .map((row) => {
      const route = routeOf(row, world)
      return {
        label: `${row.service} ${routeKey(row)}`,
        probes: () => row.fields!.map((field) => ({ field, probe: route.probe(rawAt(field)(WRONG_TYPED)) })),
      }
    })
}
