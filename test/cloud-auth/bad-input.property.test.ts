import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { getFakeCloud } from '../../src/services/fake-cloud/index.ts'
import { managementClient, type ManagementClient } from './management-client.ts'

const ROLE_FIELDS = [
  'auth_type', 'bound_ami_id', 'bound_account_id', 'bound_region', 'bound_vpc_id', 'bound_subnet_id',
  'bound_iam_role_arn', 'bound_iam_instance_profile_arn', 'bound_ec2_instance_id', 'bound_iam_principal_arn',
  'inferred_entity_type', 'inferred_aws_region', 'resolve_aws_unique_ids', 'role_tag', 'allow_instance_migration',
  'disallow_reauthentication', 'ttl', 'max_ttl', 'period', 'policies', 'token_bound_cidrs', 'token_explicit_max_ttl',
  'token_max_ttl', 'token_no_default_policy', 'token_num_uses', 'token_period', 'token_policies', 'token_type', 'token_ttl',
]

/** Each write endpoint with the field names it knows (random bodies mix them with unknown ones). */
const WRITES: { path: string; fields: string[] }[] = [
  { path: 'config/client', fields: ['access_key', 'secret_key', 'endpoint', 'iam_endpoint', 'sts_endpoint', 'sts_region', 'use_sts_region_from_client', 'iam_server_id_header_value', 'allowed_sts_header_values', 'max_retries'] },
  { path: 'config/rotate-root', fields: [] },
  { path: 'config/identity', fields: ['iam_alias', 'iam_metadata', 'ec2_alias', 'ec2_metadata'] },
  { path: 'config/certificate/c1', fields: ['aws_public_cert', 'type', 'cert_name'] },
  { path: 'config/sts/123456789012', fields: ['sts_role', 'external_id', 'account_id'] },
  { path: 'config/tidy/identity-accesslist', fields: ['safety_buffer', 'disable_periodic_tidy'] },
  { path: 'config/tidy/roletag-denylist', fields: ['safety_buffer', 'disable_periodic_tidy'] },
  { path: 'role/r1', fields: ROLE_FIELDS },
  { path: 'role/tagged', fields: ROLE_FIELDS },
  { path: 'role/tagged/tag', fields: ['policies', 'max_ttl', 'instance_id', 'allow_instance_migration', 'disallow_reauthentication', 'role'] },
  { path: 'tidy/identity-accesslist', fields: ['safety_buffer'] },
  { path: 'tidy/roletag-denylist', fields: ['safety_buffer'] },
  { path: 'identity-accesslist/i-1', fields: ['instance_id'] },
  { path: '/v1/sys/auth/extra', fields: ['type', 'description'] },
]

const NUM_RUNS = 60

/** Values near what the fields expect, so conversions pass often enough to reach the handlers' own rules. */
const plausible = fc.oneof(
  fc.constantFrom('', 'ec2', 'iam', 'true', 'false', '1', '0', '72h', '-1', '1.5', 'default', 'ec2_instance', 'us-east-1',
    'a,,b', '10.0.0.0/8', 'batch', 'pkcs7', 'identity', 'role_id', 'full_arn', 'arn:aws:iam::123456789012:role/*',
    'arn:aws:iam::123456789012:user/nobody', '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n', 'aws'),
  fc.boolean(),
  fc.integer({ min: -5, max: 5_000_000 }),
  fc.array(fc.constantFrom('ami-1', '', 'account_id', 'p', 'default', 'x-amz-foo'), { maxLength: 3 }),
)

function body(fields: string[]) {
  const key = fields.length === 0 ? fc.string() : fc.oneof(fc.constantFrom(...fields), fc.string({ maxLength: 8 }))
  return fc.dictionary(key, fc.oneof(fc.jsonValue({ maxDepth: 2 }), plausible), { maxKeys: 6 })
}

/** A mount with something to act on: a tagged role, working client keys, a deny-listed tag. */
async function prepared(): Promise<ManagementClient> {
  const api = managementClient()
  const cloud = getFakeCloud(api.doppel)
  cloud.defaultServiceCredentials()
  const user = cloud.createPrincipal({ type: 'user', name: 'rotator' })
  await api.write('config/client', { access_key: user.access_key_id, secret_key: user.secret_access_key })
  await api.write('role/tagged', { auth_type: 'ec2', bound_ami_id: 'ami-1', role_tag: 'k', policies: 'p' })
  const tag = (await api.write('role/tagged/tag')).body.data.tag_value
  await api.write(`roletag-denylist/${encodeURIComponent(tag)}`)
  await api.read('/v1/sys/auth')
  return api
}

async function expectNoHarm(api: ManagementClient, send: () => Promise<{ status: number; body: any }>) {
  const before = api.doppel.store.snapshot()
  const answer = await send()
  expect(answer.status).toBeLessThan(500)
  if (answer.status >= 400) expect(answer.body).toHaveProperty('errors')
  // A refusal, or the redirect of a path with an empty segment, which runs nothing.
  if (answer.status >= 400 || answer.status === 307) expect(api.doppel.store.snapshot()).toEqual(before)
}

describe('random input to every write endpoint: never a 5xx, and a 4xx changes nothing', () => {
  for (const { path, fields } of WRITES) {
    it(`POST ${path} with random JSON objects`, async () => {
      const api = await prepared()
      await fc.assert(
        fc.asyncProperty(body(fields), async (data) => {
          await expectNoHarm(api, () => api.write(path, data))
        }),
        { numRuns: NUM_RUNS },
      )
    })
  }

  it('random raw bodies, as JSON or form', async () => {
    const api = await prepared()
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...WRITES.map((w) => w.path)),
        fc.oneof(fc.string(), fc.json()),
        fc.constantFrom('application/json', 'application/x-www-form-urlencoded', 'text/plain'),
        async (path, raw, contentType) => {
          await expectNoHarm(api, () => api.call('POST', path, { body: raw, headers: { 'Content-Type': contentType } }))
        },
      ),
      { numRuns: 200 },
    )
  })

  it('random deny-list tags in the path, as given or base64-encoded', async () => {
    const api = await prepared()
    await fc.assert(
      fc.asyncProperty(fc.string(), fc.boolean(), fc.constantFrom('POST', 'GET', 'DELETE'), async (tag, encode, method) => {
        const segment = encode ? Buffer.from(tag).toString('base64') : tag.split('/').map(encodeURIComponent).join('/')
        await expectNoHarm(api, () => api.call(method, `roletag-denylist/${segment}`, method === 'POST' ? { body: {} } : {}))
      }),
      { numRuns: 200 },
    )
  })

  it('random query strings on reads, lists and deletes', async () => {
    const api = await prepared()
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('config/client', 'config/identity', 'role/tagged', 'roles', 'config/sts', 'identity-accesslist/i-1'),
        fc.dictionary(fc.string({ minLength: 1, maxLength: 6 }), fc.string({ maxLength: 6 }), { maxKeys: 3 }),
        fc.constantFrom('GET', 'DELETE', 'LIST'),
        async (path, query, method) => {
          const search = new URLSearchParams(query).toString()
          const answer = await api.call(method, `${path}${search ? `?${search}` : ''}`)
          expect(answer.status).toBeLessThan(500)
        },
      ),
      { numRuns: 200 },
    )
  })
})
