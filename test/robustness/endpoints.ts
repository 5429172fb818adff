import aws4 from 'aws4'
import { amzDate, BASE } from '../cloud-auth/login-setup.ts'
import { JSON_API } from '../registry/registry-client.ts'
import { ACCOUNT, type RobustWorld } from './robust-world.ts'

/** Every endpoint of both services and the fake cloud, as builders of requests that carry one bad value. */

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

const MiB = 1024 * 1024
const AUTH_LIMIT = 32 * MiB
const REGISTRY_JSON_LIMIT = MiB
const ARCHIVE_LIMIT = 50 * MiB
const CONTROL_LIMIT = 8 * MiB
const CLOUD_LIMIT = MiB

const ROOT = { 'X-Service-Token': 'root', 'Content-Type': 'application/json' }
const V2 = { Authorization: 'Bearer root', 'Content-Type': JSON_API }
const JSON_HEADERS = { 'Content-Type': 'application/json' }

const probe = (method: string, url: string, headers: Record<string, string>, body?: BodyInit): Probe => ({
  method,
  url,
  headers,
  ...(body !== undefined && { body }),
})
const json = (value: unknown) => JSON.stringify(value)
/** Form/query encoding that survives lone surrogates (they become U+FFFD, as in any real client). */
const formEncode = (value: string) => new URLSearchParams({ v: value }).toString().slice(2)

/** An authenticated write of the auth service, with its bad-value builders. */
function authWrite(path: string, extra: Omit<Endpoint, 'label' | 'family' | 'send' | 'json' | 'limit'>): Endpoint {
  return {
    label: `auth POST ${path}`,
    family: 'auth',
    send: (body) => probe('POST', `${BASE}/v1/auth/cloud/${path}`, ROOT, body),
    json: true,
    limit: AUTH_LIMIT,
    ...extra,
  }
}

const authName = (method: string, template: (name: string) => string, body?: string) => (name: string) =>
  probe(method, `${BASE}/v1/auth/cloud/${template(name)}`, ROOT, body)

const authRead = (method: 'GET' | 'DELETE', template: (name: string) => string): Endpoint => ({
  label: `auth ${method} ${template(':name')}`,
  family: 'auth',
  takes: { name: authName(method, template) },
})

/** A registry management write (JSON:API). */
function v2Write(method: string, path: string, extra: Partial<Endpoint> = {}): Endpoint {
  return {
    label: `registry ${method} ${path}`,
    family: 'registry',
    send: (body) => probe(method, `${BASE}${path}`, V2, body),
    limit: REGISTRY_JSON_LIMIT,
    takes: {},
    ...extra,
  }
}

const MODULES = '/api/v2/organizations/acme/registry-modules'
const PRIVATE = `${MODULES}/private/acme`
const V1 = '/api/registry/v1/modules/acme'

/** A SigV4-signed query-protocol request to the fake cloud (aws4, the emulator's clock). */
function signed(world: () => RobustWorld, service: 'sts' | 'iam' | 'ec2', params: string): Probe {
  const host = service === 'ec2' ? 'ec2.us-east-1.amazonaws.com' : `${service}.amazonaws.com`
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

/** A query-protocol request with a hand-made Authorization header. */
function brokenSignature(world: () => RobustWorld, service: 'sts' | 'iam' | 'ec2', params: string) {
  return (authorization: string) => {
    const good = signed(world, service, params)
    return { ...good, headers: { ...good.headers, Authorization: authorization } }
  }
}

/** A query-protocol operation of the fake cloud; `param` takes the bad names and texts. */
function awsOperation(world: () => RobustWorld, service: 'sts' | 'iam' | 'ec2', action: string, param?: (value: string) => string): Endpoint {
  const base = `Action=${action}&Version=${service === 'ec2' ? '2016-11-15' : service === 'iam' ? '2010-05-08' : '2011-06-15'}`
  const host = service === 'ec2' ? 'ec2.us-east-1.amazonaws.com' : `${service}.amazonaws.com`
  const withParam = (value: string) => signed(world, service, `${base}&${param!(value)}`)
  return {
    label: `${service} ${action}`,
    family: service === 'ec2' ? 'ec2' : 'aws',
    // Unsigned, whatever the body: the fake refuses it before reading any parameter.
    send: (body) => probe('POST', `https://${host}/`, { 'Content-Type': 'application/x-www-form-urlencoded' }, body),
    json: true,
    limit: CLOUD_LIMIT,
    takes: {
      sigv4: brokenSignature(world, service, base),
      ...(param && { name: withParam, text: (value: string) => withParam(formEncode(value)) }),
    },
  }
}

/** The fake cloud's control API under `/_doppel/cloud/`. */
function cloudControl(method: string, path: string, extra: Partial<Endpoint> = {}): Endpoint {
  return {
    label: `cloud ${method} /_doppel/cloud/${path}`,
    family: 'control',
    send: (body) => probe(method, `${BASE}/_doppel/cloud/${path}`, JSON_HEADERS, body),
    json: true,
    limit: CLOUD_LIMIT,
    takes: {},
    ...extra,
  }
}

/**
 * Every endpoint. `world` is asked for valid names and documents only when a request is built, so the
 * table (and the tests named from it) exists before the set-up runs.
 */
export function allEndpoints(world: () => RobustWorld): Endpoint[] {
  const instanceId = () => world().instance.instance_id
  const loginWith = (fields: Record<string, unknown>) => probe('POST', `${BASE}/v1/auth/cloud/login`, JSON_HEADERS, json(fields))
  const iamHeaders = (authorization: string) => {
    const payload = world().iamLogin()
    const headers = JSON.parse(Buffer.from(payload.iam_request_headers!, 'base64').toString()) as Record<string, string>
    headers.Authorization = authorization
    return { ...payload, iam_request_headers: Buffer.from(json(headers)).toString('base64') }
  }
  const cloudText = (key: string, rest: Record<string, unknown> = {}) => (value: string) =>
    probe('POST', '', JSON_HEADERS, json({ ...rest, [key]: value }))
  const cloudWrite = (path: string, build: (value: string) => Probe) => (value: string) => ({
    ...build(value),
    url: `${BASE}/_doppel/cloud/${path}`,
  })

  return [
    // The auth service: login.
    {
      label: 'auth POST login',
      family: 'auth',
      send: (body) => probe('POST', `${BASE}/v1/auth/cloud/login`, JSON_HEADERS, body),
      json: true,
      emptyIsBad: true,
      limit: AUTH_LIMIT,
      takes: {
        types: (value) => probe('POST', `${BASE}/v1/auth/cloud/login`, JSON_HEADERS, `{"role":${value},"pkcs7":${value},"nonce":${value}}`),
        base64: (value) => loginWith({ role: 'web-role', pkcs7: value }),
        pkcs7: (value) => loginWith({ role: 'web-role', pkcs7: value, nonce: 'another-nonce' }),
        sigv4: (value) => loginWith(iamHeaders(value)),
        text: (value) => loginWith({ role: value, pkcs7: world().pkcs7 }),
      },
    },
    {
      label: 'auth POST login (identity + signature)',
      family: 'auth',
      takes: {
        base64: (value) => loginWith({ role: 'web-role', identity: value, signature: value }),
        pkcs7: (value) => loginWith({ role: 'web-role', identity: Buffer.from('{"instanceId":"i-1"}').toString('base64'), signature: value }),
      },
    },
    {
      label: 'auth POST login (iam)',
      family: 'auth',
      takes: {
        base64: (value) => loginWith({ ...world().iamLogin(), iam_request_url: value }),
        types: (value) => probe('POST', `${BASE}/v1/auth/cloud/login`, JSON_HEADERS, `{"role":"alice-role","iam_http_request_method":${value},"iam_request_url":${value}}`),
        text: (value) => loginWith({ ...world().iamLogin(), iam_http_request_method: value }),
      },
    },
    // The auth service: management writes.
    authWrite('role/:role', {
      emptyIsBad: true,
      takes: {
        types: (value) => probe('POST', `${BASE}/v1/auth/cloud/role/fresh`, ROOT, `{"auth_type":"ec2","bound_ami_id":"ami-1","ttl":${value}}`),
        name: authName('POST', (name) => `role/${name}`, json({ auth_type: 'ec2', bound_ami_id: 'ami-1' })),
        text: (value) => probe('POST', `${BASE}/v1/auth/cloud/role/fresh`, ROOT, json({ auth_type: value, bound_ami_id: 'ami-1' })),
      },
    }),
    authWrite('role/web-role', {
      takes: {
        types: (value) => probe('POST', `${BASE}/v1/auth/cloud/role/web-role`, ROOT, `{"bound_ami_id":"ami-1","policies":${value}}`),
        text: (value) => probe('POST', `${BASE}/v1/auth/cloud/role/web-role`, ROOT, json({ inferred_entity_type: value })),
      },
    }),
    authWrite('role/tagged/tag', {
      takes: {
        types: (value) => probe('POST', `${BASE}/v1/auth/cloud/role/tagged/tag`, ROOT, `{"max_ttl":${value}}`),
        name: authName('POST', (name) => `role/${name}/tag`),
        text: (value) => probe('POST', `${BASE}/v1/auth/cloud/role/tagged/tag`, ROOT, json({ instance_id: 'i-1', max_ttl: value })),
      },
    }),
    authWrite('config/client', {
      takes: {
        types: (value) => probe('POST', `${BASE}/v1/auth/cloud/config/client`, ROOT, `{"max_retries":${value}}`),
        text: (value) => probe('POST', `${BASE}/v1/auth/cloud/config/client`, ROOT, json({ max_retries: value })),
      },
    }),
    authWrite('config/rotate-root', { takes: {} }),
    authWrite('config/identity', {
      takes: {
        types: (value) => probe('POST', `${BASE}/v1/auth/cloud/config/identity`, ROOT, `{"iam_alias":${value}}`),
        text: (value) => probe('POST', `${BASE}/v1/auth/cloud/config/identity`, ROOT, json({ iam_alias: value })),
      },
    }),
    authWrite('config/certificate/:cert_name', {
      emptyIsBad: true,
      takes: {
        types: (value) => probe('POST', `${BASE}/v1/auth/cloud/config/certificate/c2`, ROOT, `{"aws_public_cert":${value}}`),
        base64: (value) => probe('POST', `${BASE}/v1/auth/cloud/config/certificate/c2`, ROOT, json({ aws_public_cert: value })),
        name: (name) => authName('POST', (n) => `config/certificate/${n}`, json({ aws_public_cert: world().cloud.builtInCertificates().pkcs7[0] }))(name),
        text: (value) => probe('POST', `${BASE}/v1/auth/cloud/config/certificate/c2`, ROOT, json({ aws_public_cert: 'x', type: value })),
      },
    }),
    authWrite('config/sts/:account_id', {
      emptyIsBad: true,
      takes: {
        types: (value) => probe('POST', `${BASE}/v1/auth/cloud/config/sts/210987654321`, ROOT, `{"sts_role":${value}}`),
        name: authName('POST', (name) => `config/sts/${name}`, json({ sts_role: `arn:aws:iam::${ACCOUNT}:role/x` })),
      },
    }),
    ...['identity-accesslist', 'roletag-denylist'].flatMap((list) => [
      authWrite(`config/tidy/${list}`, {
        takes: {
          types: (value) => probe('POST', `${BASE}/v1/auth/cloud/config/tidy/${list}`, ROOT, `{"safety_buffer":${value}}`),
          text: (value) => probe('POST', `${BASE}/v1/auth/cloud/config/tidy/${list}`, ROOT, json({ safety_buffer: value })),
        },
      }),
      authWrite(`tidy/${list}`, {
        takes: {
          types: (value) => probe('POST', `${BASE}/v1/auth/cloud/tidy/${list}`, ROOT, `{"safety_buffer":${value}}`),
          text: (value) => probe('POST', `${BASE}/v1/auth/cloud/tidy/${list}`, ROOT, json({ safety_buffer: value })),
        },
      }),
    ]),
    authWrite('roletag-denylist/:role_tag', {
      takes: {
        base64: authName('POST', (tag) => `roletag-denylist/${tag}`),
        name: authName('POST', (tag) => `roletag-denylist/${tag}`),
      },
    }),
    {
      label: 'auth POST sys/auth/:path',
      family: 'auth',
      send: (body) => probe('POST', `${BASE}/v1/sys/auth/other`, ROOT, body),
      json: true,
      emptyIsBad: true,
      limit: AUTH_LIMIT,
      takes: {
        types: (value) => probe('POST', `${BASE}/v1/sys/auth/other`, ROOT, `{"type":${value}}`),
        text: (value) => probe('POST', `${BASE}/v1/sys/auth/other`, ROOT, json({ type: value })),
      },
    },
    // The auth service: reads, lists and deletes.
    authRead('GET', (name) => `role/${name}`),
    authRead('DELETE', (name) => `role/${name}`),
    authRead('GET', (name) => `config/certificate/${name}`),
    authRead('DELETE', (name) => `config/certificate/${name}`),
    authRead('GET', (name) => `config/sts/${name}`),
    authRead('DELETE', (name) => `config/sts/${name}`),
    authRead('GET', (name) => `identity-accesslist/${name}`),
    authRead('DELETE', (name) => `identity-accesslist/${name}`),
    authRead('GET', (tag) => `roletag-denylist/${tag}`),
    ...['roles', 'role', 'config/certificates', 'config/sts', 'identity-accesslist', 'roletag-denylist'].map(
      (list): Endpoint => ({
        label: `auth LIST ${list}`,
        family: 'auth',
        takes: { text: (value) => probe('GET', `${BASE}/v1/auth/cloud/${list}?list=${formEncode(value)}`, ROOT) },
      }),
    ),

    // The registry: management writes.
    v2Write('POST', MODULES, {
      json: true,
      emptyIsBad: true,
      takes: {
        types: (value) => probe('POST', `${BASE}${MODULES}`, V2, `{"data":{"type":"registry-modules","attributes":{"name":${value},"provider":"aws","registry-name":"private"}}}`),
        name: (name) => probe('POST', `${BASE}/api/v2/organizations/${name}/registry-modules`, V2, json({ data: { type: 'registry-modules', attributes: { name: 'x', provider: 'aws', 'registry-name': 'private' } } })),
        text: (value) => probe('POST', `${BASE}${MODULES}`, V2, json({ data: { type: 'registry-modules', attributes: { name: value, provider: 'aws', 'registry-name': 'private' } } })),
      },
    }),
    ...[`${PRIVATE}/vpc/aws/versions`, '/api/v2/registry-modules/acme/vpc/aws/versions'].map((path) =>
      v2Write('POST', path, {
        json: true,
        emptyIsBad: true,
        takes: {
          types: (value) => probe('POST', `${BASE}${path}`, V2, `{"data":{"type":"registry-module-versions","attributes":{"version":${value}}}}`),
          name: (name) => probe('POST', `${BASE}${path.replace('/vpc/', `/${name}/`)}`, V2, json({ data: { type: 'registry-module-versions', attributes: { version: '3.0.0' } } })),
          text: (value) => probe('POST', `${BASE}${path}`, V2, json({ data: { type: 'registry-module-versions', attributes: { version: value } } })),
        },
      }),
    ),
    v2Write('PATCH', `${PRIVATE}/vpc/aws/1.0.0`, {
      json: true,
      emptyIsBad: true,
      takes: {
        types: (value) => probe('PATCH', `${BASE}${PRIVATE}/vpc/aws/1.0.0`, V2, `{"data":{"type":"module-versions","attributes":{"deprecation":{"deprecated-status":${value},"reason":${value}}}}}`),
        name: (name) => probe('PATCH', `${BASE}${PRIVATE}/vpc/aws/${name}`, V2, json({ data: { type: 'module-versions', attributes: { deprecation: { 'deprecated-status': 'Deprecated' } } } })),
        text: (value) => probe('PATCH', `${BASE}${PRIVATE}/vpc/aws/1.0.0`, V2, json({ data: { type: 'module-versions', attributes: { deprecation: { 'deprecated-status': value } } } })),
      },
    }),
    // Deletes read (and bound) a body but need none: only names and size apply.
    ...[
      ['DELETE', (name: string) => `${PRIVATE}/vpc/aws/${name}`],
      ['DELETE', (name: string) => `${PRIVATE}/vpc/${name}`],
      ['DELETE', (name: string) => `${PRIVATE}/${name}`],
      ['POST', (name: string) => `/api/v2/registry-modules/actions/delete/acme/vpc/aws/${name}`],
      ['POST', (name: string) => `/api/v2/registry-modules/actions/delete/acme/vpc/${name}`],
      ['POST', (name: string) => `/api/v2/registry-modules/actions/delete/acme/${name}`],
    ].map(([method, template]) => {
      const path = template as (name: string) => string
      return v2Write(method as string, path(':name'), {
        send: (body) => probe(method as string, `${BASE}${path('no-such-thing')}`, V2, body),
        takes: { name: (name) => probe(method as string, `${BASE}${path(name)}`, V2) },
      })
    }),
    // The registry: reads.
    ...[
      (name: string) => `/api/v2/organizations/${name}/registry-modules`,
      (name: string) => `${PRIVATE}/${name}/aws`,
      (name: string) => `${PRIVATE}/vpc/aws/version?module_version=${name}`,
      (name: string) => `/api/v2/registry-modules/show/acme/${name}/aws`,
      (name: string) => `/api/v2/registry-modules/${name}`,
    ].map(
      (template): Endpoint => ({
        label: `registry GET ${template(':name')}`,
        family: 'registry',
        takes: { name: (name) => probe('GET', `${BASE}${template(name)}`, V2) },
      }),
    ),
    ...[
      (name: string) => `${V1}/${name}/aws/versions`,
      (name: string) => `${V1}/${name}/aws/download`,
      (name: string) => `${V1}/vpc/aws/${name}/download`,
      (name: string) => `${V1}/vpc/aws/${name}`,
      (name: string) => `${V1}/vpc/${name}`,
    ].map(
      (template): Endpoint => ({
        label: `registry v1 GET ${template(':name')}`,
        family: 'registry-v1',
        takes: { name: (name) => probe('GET', `${BASE}${template(name)}`, { Authorization: 'Bearer root' }) },
      }),
    ),
    // The registry: the archivist.
    {
      label: 'registry PUT /_archivist/v1/object/:object',
      family: 'registry',
      send: (body) => probe('PUT', `${BASE}/_archivist/v1/object/${world().uploadObject}`, { 'Content-Type': 'application/octet-stream' }, body),
      json: true,
      emptyIsBad: true,
      limit: ARCHIVE_LIMIT,
      takes: {
        archive: (value) => probe('PUT', `${BASE}/_archivist/v1/object/${world().uploadObject}`, {}, Buffer.from(value, 'base64')),
        name: (name) => probe('PUT', `${BASE}/_archivist/v1/object/${name}`, {}, 'x'),
      },
    },
    {
      label: 'registry GET /_archivist/v1/object/:object',
      family: 'registry',
      takes: { name: (name) => probe('GET', `${BASE}/_archivist/v1/object/${name}`, {}) },
    },
    // The registry's set-up routes.
    ...['tokens', 'fixtures'].map(
      (route): Endpoint => ({
        label: `registry POST /_doppel/registry/${route}`,
        family: 'control',
        send: (body) => probe('POST', `${BASE}/_doppel/registry/${route}`, JSON_HEADERS, body),
        json: true,
        emptyIsBad: true,
        limit: CONTROL_LIMIT,
        takes: {
          types: (value) =>
            probe('POST', `${BASE}/_doppel/registry/${route}`, JSON_HEADERS, route === 'tokens' ? `{"organizations":${value}}` : `{"modules":${value}}`),
          text: (value) =>
            probe('POST', `${BASE}/_doppel/registry/${route}`, JSON_HEADERS, json(route === 'tokens' ? { organizations: [value] } : { organizations: [value] })),
        },
      }),
    ),

    // The fake cloud: STS, IAM, EC2.
    awsOperation(world, 'sts', 'GetCallerIdentity'),
    awsOperation(world, 'sts', 'AssumeRole', (value) => `RoleArn=${value}&RoleSessionName=s`),
    awsOperation(world, 'iam', 'GetUser', (value) => `UserName=${value}`),
    awsOperation(world, 'iam', 'GetRole', (value) => `RoleName=${value}`),
    awsOperation(world, 'iam', 'GetInstanceProfile', (value) => `InstanceProfileName=${value}`),
    awsOperation(world, 'iam', 'ListAccessKeys', (value) => `UserName=${value}`),
    awsOperation(world, 'iam', 'CreateAccessKey', (value) => `UserName=${value}`),
    awsOperation(world, 'iam', 'DeleteAccessKey', (value) => `AccessKeyId=${value}`),
    awsOperation(world, 'ec2', 'DescribeInstances', (value) => `InstanceId.1=${value}`),
    awsOperation(world, 'ec2', 'DescribeInstances', (value) => `MaxResults=${value}`),
    // The fake cloud: its control API.
    cloudControl('POST', 'instances', {
      takes: {
        types: (value) => probe('POST', `${BASE}/_doppel/cloud/instances`, JSON_HEADERS, `{"instance_id":${value},"tags":${value}}`),
        text: cloudWrite('instances', cloudText('instance_id')),
      },
    }),
    {
      label: 'cloud GET /_doppel/cloud/instances/:id',
      family: 'control',
      takes: { name: (name) => probe('GET', `${BASE}/_doppel/cloud/instances/${name}`, {}) },
    },
    cloudControl('POST', 'instances/:id/state', {
      send: (body) => probe('POST', `${BASE}/_doppel/cloud/instances/${instanceId()}/state`, JSON_HEADERS, body),
      emptyIsBad: true,
      takes: {
        types: (value) => probe('POST', `${BASE}/_doppel/cloud/instances/${instanceId()}/state`, JSON_HEADERS, `{"state":${value}}`),
        name: (name) => probe('POST', `${BASE}/_doppel/cloud/instances/${name}/state`, JSON_HEADERS, json({ state: 'stopped' })),
        text: (value) => ({ ...cloudText('state')(value), url: `${BASE}/_doppel/cloud/instances/${instanceId()}/state` }),
      },
    }),
    {
      label: 'cloud POST /_doppel/cloud/instances/:id/imds',
      family: 'control',
      takes: { name: (name) => probe('POST', `${BASE}/_doppel/cloud/instances/${name}/imds`, {}) },
    },
    cloudControl('POST', 'principals', {
      emptyIsBad: true,
      takes: {
        types: (value) => probe('POST', `${BASE}/_doppel/cloud/principals`, JSON_HEADERS, `{"type":"user","name":${value}}`),
        text: cloudWrite('principals', cloudText('name', { type: 'user' })),
      },
    }),
    {
      label: 'cloud DELETE /_doppel/cloud/principals/:arn',
      family: 'control',
      takes: { name: (name) => probe('DELETE', `${BASE}/_doppel/cloud/principals/${name}`, {}) },
    },
    cloudControl('POST', 'identity-document', {
      emptyIsBad: true,
      takes: {
        types: (value) => probe('POST', `${BASE}/_doppel/cloud/identity-document`, JSON_HEADERS, `{"instance_id":${value}}`),
        text: cloudWrite('identity-document', cloudText('instance_id')),
      },
    }),
    cloudControl('POST', 'use-instance', {
      emptyIsBad: true,
      takes: {
        types: (value) => probe('POST', `${BASE}/_doppel/cloud/use-instance`, JSON_HEADERS, `{"instance_id":${value}}`),
        text: cloudWrite('use-instance', cloudText('instance_id')),
      },
    }),
    {
      label: 'cloud GET /_doppel/cloud/imds/:id/latest/meta-data/…',
      family: 'imds',
      takes: {
        name: (name) => probe('GET', `${BASE}/_doppel/cloud/imds/${instanceId()}/latest/meta-data/${name}`, {}),
        // Header values are bytes: text a client cannot put in a header never reaches the service.
        text: (value) =>
          /^[\x20-\x7e\x80-\xff]*$/.test(value)
            ? probe('PUT', `${BASE}/_doppel/cloud/imds/${instanceId()}/latest/api/token`, { 'X-aws-ec2-metadata-token-ttl-seconds': value })
            : undefined,
      },
    },
    // doppel's own control API.
    {
      label: 'control POST /_doppel/faults',
      family: 'control',
      send: (body) => probe('POST', `${BASE}/_doppel/faults`, JSON_HEADERS, body),
      json: true,
      emptyIsBad: true,
      limit: CONTROL_LIMIT,
      takes: {
        types: (value) => probe('POST', `${BASE}/_doppel/faults`, JSON_HEADERS, `{"path":${value},"status":${value}}`),
        text: (value) => probe('POST', `${BASE}/_doppel/faults`, JSON_HEADERS, json({ path: '/x', latency_ms: value })),
      },
    },
    {
      label: 'control POST /_doppel/clock',
      family: 'control',
      send: (body) => probe('POST', `${BASE}/_doppel/clock`, JSON_HEADERS, body),
      json: true,
      emptyIsBad: true,
      limit: CONTROL_LIMIT,
      takes: {
        types: (value) => probe('POST', `${BASE}/_doppel/clock`, JSON_HEADERS, `{"advance":${value}}`),
        // A blank duration is zero, as everywhere durations are parsed: a valid no-op, not bad input.
        text: (value) => (value.trim() === '' ? undefined : probe('POST', `${BASE}/_doppel/clock`, JSON_HEADERS, json({ advance: value }))),
      },
    },
    {
      label: 'control POST /_doppel/fixtures',
      family: 'control',
      send: (body) => probe('POST', `${BASE}/_doppel/fixtures`, JSON_HEADERS, body),
      json: true,
      limit: CONTROL_LIMIT,
      takes: {
        types: (value) => probe('POST', `${BASE}/_doppel/fixtures`, JSON_HEADERS, `{"version":1,"auth":{"roles":{"fixture-role":${value}}}}`),
        text: (value) => probe('POST', `${BASE}/_doppel/fixtures`, JSON_HEADERS, json({ version: 1, registry: { organizations: [value] } })),
      },
    },
    {
      label: 'control DELETE /_doppel/faults/:id',
      family: 'control',
      takes: { name: (name) => probe('DELETE', `${BASE}/_doppel/faults/${name}`, {}) },
    },
    {
      label: 'control GET /_doppel/:unknown',
      family: 'control',
      // A traversal out of /_doppel/ is another route (the router's 404), not bad input to this one.
      takes: { name: (name) => (/^(\.\.|%2e%2e)\//i.test(name) ? undefined : probe('GET', `${BASE}/_doppel/${name}`, {})) },
    },
    {
      label: 'cloud DELETE /_doppel/cloud/instances/:id/imds',
      family: 'control',
      takes: { name: (name) => probe('DELETE', `${BASE}/_doppel/cloud/instances/${name}/imds`, {}) },
    },
  ]
}
