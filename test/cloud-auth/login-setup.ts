import aws4 from 'aws4'
import { createDoppel, type Doppel, type DoppelOptions } from '../../src/features/doppel/index.ts'
import { getFakeCloud, type FakeCloudApi, type Instance, type Principal } from '../../src/services/fake-cloud/index.ts'

/** Shared set-up of the login behaviour tests: an emulator on a frozen clock, its fake cloud, HTTP helpers. */

export const BASE = 'http://doppel.test'
export const START = '2026-03-01T12:00:00Z'

export interface JsonReply {
  status: number
  body: any
}

export interface LoginWorld {
  doppel: Doppel
  cloud: FakeCloudApi
  /** A management call with the root token. */
  api(method: string, path: string, body?: unknown): Promise<JsonReply>
  /** `POST /v1/auth/cloud/login` without a token. */
  login(body: unknown, init?: { remoteAddress?: string }): Promise<JsonReply>
  lookupSelf(token: string, header?: string): Promise<JsonReply>
}

export function loginWorld(options: DoppelOptions = {}): LoginWorld {
  const doppel = createDoppel({ seed: 7, clock: { start: START, frozen: true }, ...options })
  const cloud = getFakeCloud(doppel)
  const reply = async (response: Response): Promise<JsonReply> => {
    const text = await response.text()
    return { status: response.status, body: text === '' ? null : JSON.parse(text) }
  }
  return {
    doppel,
    cloud,
    async api(method, path, body) {
      const init: RequestInit = { method, headers: { 'X-Service-Token': 'root', 'Content-Type': 'application/json' } }
      if (body !== undefined) init.body = JSON.stringify(body)
      return reply(await doppel.fetch(`${BASE}/v1/auth/cloud/${path}`, init))
    },
    async login(body, init = {}) {
      const request = new Request(`${BASE}/v1/auth/cloud/login`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      })
      return reply(await doppel.handle(request, { remoteAddress: init.remoteAddress ?? '127.0.0.1' }))
    },
    async lookupSelf(token, header = 'X-Service-Token') {
      return reply(await doppel.fetch(`${BASE}/v1/auth/token/lookup-self`, { headers: { [header]: header === 'Authorization' ? `Bearer ${token}` : token } }))
    },
  }
}

/** An ec2 role bound to the instance's AMI, plus any other role fields. */
export async function createEc2Role(world: LoginWorld, name: string, instance: Instance, fields: Record<string, unknown> = {}): Promise<void> {
  const reply = await world.api('POST', `role/${name}`, { auth_type: 'ec2', bound_ami_id: instance.ami_id, ...fields })
  if (reply.status >= 300) throw new Error(`role ${name}: ${JSON.stringify(reply.body)}`)
}

/** The login body of the identity + signature flow. */
export function identitySignature(world: LoginWorld, instanceId: string): { identity: string; signature: string } {
  return {
    identity: Buffer.from(world.cloud.identityDocument(instanceId, 'document')).toString('base64'),
    signature: world.cloud.identityDocument(instanceId, 'signature'),
  }
}

export const GET_CALLER_IDENTITY = 'Action=GetCallerIdentity&Version=2011-06-15'

export interface SignOptions {
  extraHeaders?: Record<string, string>
  /** Sign as of this time (default: the emulator clock). */
  date?: Date
  host?: string
  /** The credential scope's region (default us-east-1). */
  region?: string
  secret?: string
}

/** The iam login fields of a GetCallerIdentity request signed by `aws4` (headers as base64 JSON). */
export function aws4LoginData(world: LoginWorld, principal: Principal, options: SignOptions = {}): Record<string, string> {
  const host = options.host ?? 'sts.amazonaws.com'
  const date = options.date ?? world.doppel.clock.now()
  const request = {
    host,
    path: '/',
    method: 'POST',
    service: 'sts',
    region: options.region ?? 'us-east-1',
    body: GET_CALLER_IDENTITY,
    headers: {
      'Content-Type': 'application/x-www-form-urlencoded; charset=utf-8',
      'X-Amz-Date': amzDate(date),
      ...options.extraHeaders,
    } as Record<string, string>,
  }
  aws4.sign(request, {
    accessKeyId: principal.access_key_id,
    secretAccessKey: options.secret ?? principal.secret_access_key,
    ...(principal.session_token && { sessionToken: principal.session_token }),
  })
  const headers: Record<string, string> = {}
  for (const [key, value] of Object.entries(request.headers)) if (key.toLowerCase() !== 'host') headers[key] = String(value)
  return {
    iam_http_request_method: 'POST',
    iam_request_url: Buffer.from(`https://${host}/`).toString('base64'),
    iam_request_body: Buffer.from(GET_CALLER_IDENTITY).toString('base64'),
    iam_request_headers: Buffer.from(JSON.stringify(headers)).toString('base64'),
  }
}

/** `20260301T120000Z` */
export function amzDate(date: Date): string {
  return date.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '')
}
