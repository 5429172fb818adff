import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createDoppel } from '../../src/features/doppel/index.ts'
import { FixtureError, loadFixtureFile, loadFixtures } from '../../src/faces/scenario/index.ts'
import { tempDir } from '../support/temp-dir.ts'

const base = 'http://doppel.test'
const root = { 'X-Service-Token': 'root' }

async function listRoles(doppel: ReturnType<typeof createDoppel>): Promise<unknown> {
  const response = await doppel.fetch(`${base}/v1/auth/cloud/roles?list=true`, { headers: root })
  return response.status === 404 ? [] : ((await response.json()) as { data: { keys: string[] } }).data.keys
}

async function failure(promise: Promise<unknown>): Promise<string[]> {
  try {
    await promise
  } catch (error) {
    if (error instanceof FixtureError) return error.lines()
    throw error
  }
  throw new Error('the fixture was accepted')
}

const FIXTURE = `
cloud:
  instances:
    - { instance_id: i-0123456789abcdef0, ami_id: ami-0abc1234, account_id: "123456789012", region: us-east-1, state: running }
  principals:
    - { type: user }
registry:
  organizations: [acme]
  tokens: [{ organizations: [acme] }]
  modules:
    - { organization: acme, name: vpc, provider: aws, versions: ["1.0.0"] }
auth:
  config:
    tidy: { identity_accesslist: { safety_buffer: 1h } }
  roles:
    web: { auth_type: ec2, bound_ami_id: ami-0abc1234 }
`

describe('loadFixtures', () => {
  it('seeds the auth method through its own endpoints, the fake cloud and the registry', async () => {
    const doppel = createDoppel({ seed: 9 })
    const summary = await loadFixtures(doppel, FIXTURE, 'f.yaml')
    expect(summary).toMatchObject({ mount: 'cloud', roles: ['web'], organizations: ['acme'], modules: ['acme/vpc/aws'], versions: 1 })
    expect(summary.instances.map((i) => i.instance_id)).toEqual(['i-0123456789abcdef0'])
    expect(summary.principals[0]).toMatchObject({ type: 'user', access_key_id: expect.stringMatching(/^AKIA/) })
    expect(await listRoles(doppel)).toEqual(['web'])
    const tidy = await doppel.fetch(`${base}/v1/auth/cloud/config/tidy/identity-accesslist`, { headers: root })
    expect(((await tidy.json()) as { data: unknown }).data).toEqual({ safety_buffer: 3600, disable_periodic_tidy: false })
    const token = summary.tokens[0]!.token
    const read = await doppel.fetch(`${base}/api/registry/v1/modules/acme/vpc/aws/1.0.0`, { headers: { Authorization: `Bearer ${token}` } })
    expect(read.status).toBe(200)
  })

  it('an instance fixture can require IMDSv2 (http_tokens), as the control API can', async () => {
    const doppel = createDoppel({ seed: 9 })
    await loadFixtures(doppel, 'cloud:\n  instances:\n    - { instance_id: i-0aaaaaaaaaaaaaaa1, http_tokens: required }\n', 'v2.yaml')
    const imds = `${base}/_doppel/cloud/imds/i-0aaaaaaaaaaaaaaa1/latest`
    expect((await doppel.fetch(`${imds}/meta-data/instance-id`)).status).toBe(401)
    const token = await (await doppel.fetch(`${imds}/api/token`, { method: 'PUT', headers: { 'X-aws-ec2-metadata-token-ttl-seconds': '60' } })).text()
    const read = await doppel.fetch(`${imds}/meta-data/instance-id`, { headers: { 'X-aws-ec2-metadata-token': token } })
    expect(await read.text()).toBe('i-0aaaaaaaaaaaaaaa1')
    const lines = await failure(loadFixtures(createDoppel(), 'cloud:\n  instances:\n    - { http_tokens: always }\n', 'bad.yaml'))
    expect(lines[0]).toMatch(/^bad\.yaml:3: cloud\.instances\[0\]\.http_tokens: /)
  })

  it('fills what was left out from the instance seed: same seed, same values; another seed, others', async () => {
    const fill = async (seed: number) => {
      const summary = await loadFixtures(createDoppel({ seed }), FIXTURE, 'f.yaml')
      return { name: summary.principals[0]!.name, tags: summary.instances[0]!.tags, ip: summary.instances[0]!.private_ip, token: summary.tokens[0]!.token }
    }
    const first = await fill(1)
    expect(first.name).toMatch(/^[A-Za-z0-9+=,.@_-]+$/)
    expect(first.ip).toMatch(/^10\./)
    expect(first.token).toMatch(/^[A-Za-z0-9]{14}\.atlasv1\.[A-Za-z0-9]{67}$/)
    expect(await fill(1)).toEqual(first)
    expect(await fill(2)).not.toEqual(first)
  })

  it('refuses a fixture that does not validate, with file and line, and loads nothing', async () => {
    const doppel = createDoppel()
    const lines = await failure(loadFixtures(doppel, 'auth:\n  roles:\n    web: { auth_type: ec2, bound_ami: x }\ncloud:\n  instances: {}\n', 'bad.yaml'))
    expect(lines).toEqual([
      'bad.yaml:3: auth.roles.web.bound_ami: unknown key "bound_ami" (did you mean "bound_ami_id"?)',
      'bad.yaml:5: cloud.instances: must be a list, not a mapping',
    ])
    expect(await listRoles(doppel)).toEqual([])
  })

  it('a service refusal is a fixture error with the service message at the entry, and nothing is loaded', async () => {
    const doppel = createDoppel()
    await loadFixtures(doppel, { auth: { roles: { kept: { auth_type: 'iam', bound_iam_principal_arn: 'arn:aws:iam::123456789012:user/*' } } } })
    const before = doppel.store.snapshot()
    const text = 'auth:\n  roles:\n    good: { auth_type: ec2, bound_ami_id: a }\n    bad: { auth_type: ec2 }\nregistry:\n  organizations: [acme]\n  tokens: [{ organizations: [acme] }]\ncloud:\n  principals: [{ type: user, name: bob }]\n'
    expect(await failure(loadFixtures(doppel, text, 'r.yaml'))).toEqual(['r.yaml:4: auth.roles.bad: at least one bound parameter should be specified on the role'])
    expect(await listRoles(doppel)).toEqual(['kept'])
    expect(doppel.store.snapshot()).toEqual(before)
  })

  it('refuses templates outside a scenario and points at them', async () => {
    expect(await failure(loadFixtures(createDoppel(), { registry: { organizations: ['${{ vars.org }}'] } }))).toEqual([
      "fixtures: registry.organizations[0]: ${{ } } templates are resolved only in a scenario's fixtures block".replace('} }', '}}'),
    ])
  })

  it('loads another mount, enabling it first', async () => {
    const doppel = createDoppel()
    await loadFixtures(doppel, { auth: { mount: 'other', roles: { r: { auth_type: 'iam', bound_iam_principal_arn: 'arn:aws:iam::123456789012:user/*' } } } })
    const response = await doppel.fetch(`${base}/v1/auth/other/role/r`, { headers: root })
    expect(response.status).toBe(200)
    expect(await listRoles(doppel)).toEqual([])
  })

  it('reads fixture files, and says when one cannot be read', async () => {
    const dir = tempDir('fixture')
    const path = join(dir, 'f.yaml')
    writeFileSync(path, 'auth:\n  roles:\n    web: { auth_type: ec2, bound_ami_id: a }\n')
    expect((await loadFixtureFile(createDoppel(), path)).roles).toEqual(['web'])
    expect((await failure(loadFixtureFile(createDoppel(), join(dir, 'missing.yaml'))))[0]).toMatch(/missing\.yaml: cannot read the file: ENOENT/)
  })
})

describe('createDoppel({ fixtures }) and POST /_doppel/fixtures', () => {
  it('loads at creation and again after every reset, back to the same seeded values', async () => {
    const doppel = createDoppel({ seed: 4, fixtures: ['scenarios/fixtures/example.yaml', { auth: { roles: { extra: { auth_type: 'ec2', bound_ami_id: 'a' } } } }] })
    await doppel.ready()
    const roleId = async () => ((await (await doppel.fetch(`${base}/v1/auth/cloud/role/web`, { headers: root })).json()) as { data: { role_id: string } }).data.role_id
    const before = await roleId()
    expect(await listRoles(doppel)).toEqual(['deployer', 'extra', 'web'])
    await doppel.fetch(`${base}/v1/auth/cloud/role/web`, { method: 'DELETE', headers: root })
    await doppel.fetch(`${base}/v1/auth/cloud/role/new`, { method: 'POST', headers: root, body: JSON.stringify({ auth_type: 'ec2', bound_ami_id: 'x' }) })
    await doppel.reset()
    expect(await listRoles(doppel)).toEqual(['deployer', 'extra', 'web'])
    expect(await roleId()).toBe(before)
  })

  it('a fixture that fails to load rejects ready() and every request', async () => {
    const doppel = createDoppel({ fixtures: { auth: { roles: { bad: { auth_type: 'ec2' } } } } })
    await expect(doppel.ready()).rejects.toThrow('fixtures: auth.roles.bad: at least one bound parameter should be specified on the role')
    await expect(doppel.fetch(`${base}/_doppel/health`)).rejects.toBeInstanceOf(FixtureError)
  })

  it('POST /_doppel/fixtures takes YAML or JSON: 201 with a summary', async () => {
    const doppel = createDoppel()
    let response = await doppel.fetch(`${base}/_doppel/fixtures`, { method: 'POST', body: 'auth:\n  roles:\n    web: { auth_type: ec2, bound_ami_id: a }\n' })
    expect(response.status).toBe(201)
    expect(((await response.json()) as { loaded: { roles: string[] } }).loaded.roles).toEqual(['web'])
    response = await doppel.fetch(`${base}/_doppel/fixtures`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ registry: { organizations: ['acme'] } }),
    })
    expect(response.status).toBe(201)
    expect(((await response.json()) as { loaded: { organizations: string[] } }).loaded.organizations).toEqual(['acme'])
  })

  it('POST /_doppel/fixtures answers a bad fixture with 400 file:line errors and loads nothing', async () => {
    const doppel = createDoppel()
    const before = doppel.store.snapshot()
    for (const [body, errors] of [
      ['auth:\n  roles:\n    web: { auth_type: ec2 }\n', ['fixtures.yaml:3: auth.roles.web: at least one bound parameter should be specified on the role']],
      ['auth: [1\n', ['fixtures.yaml:2: Flow sequence in block collection must be sufficiently indented and end with a ]']],
      ['cloud:\n  principals:\n    - { type: robot }\n', ['fixtures.yaml:3: cloud.principals[0].type: must be one of: user, role (got "robot")']],
      ['[1, 2]', ['fixtures.yaml:1: must be a mapping, not a list']],
    ] as const) {
      const response = await doppel.fetch(`${base}/_doppel/fixtures?file=fixtures.yaml`, { method: 'POST', body })
      expect(response.status, body).toBe(400)
      expect(await response.json()).toEqual({ errors: errors })
    }
    expect(doppel.store.snapshot()).toEqual(before)
    expect(await listRoles(doppel)).toEqual([])
  })
})

describe('bad fixtures (property)', () => {
  it('any fixture either loads or is refused with file:line errors, and a refusal changes nothing', async () => {
    const scalar = fc.constantFrom<unknown>(null, true, 0, 12, -1, '', 'x', 'ec2', 'iam', 'ami-1', '123456789012', '1.0.0', 'acme', 'running', 'user', [], {})
    const role = fc.dictionary(fc.constantFrom('auth_type', 'bound_ami_id', 'bound_iam_principal_arn', 'token_ttl', 'policies', 'role_tag'), scalar, { maxKeys: 3 })
    const fixture = fc.record(
      {
        auth: fc.record({ roles: fc.dictionary(fc.constantFrom('a', 'b', 'web'), fc.oneof(role, scalar), { maxKeys: 2 }), config: fc.oneof(scalar, fc.record({ identity: fc.dictionary(fc.constantFrom('iam_alias', 'ec2_metadata'), scalar) })) }, { requiredKeys: [] }),
        cloud: fc.record({ instances: fc.oneof(scalar, fc.array(fc.dictionary(fc.constantFrom('instance_id', 'state', 'account_id', 'ami_id'), scalar), { maxLength: 2 })), principals: fc.array(fc.dictionary(fc.constantFrom('type', 'name'), scalar), { maxLength: 2 }) }, { requiredKeys: [] }),
        registry: fc.record({ organizations: fc.oneof(scalar, fc.array(scalar, { maxLength: 2 })), modules: fc.array(fc.dictionary(fc.constantFrom('organization', 'name', 'provider', 'versions'), scalar), { maxLength: 2 }) }, { requiredKeys: [] }),
      },
      { requiredKeys: [] },
    )
    await fc.assert(
      fc.asyncProperty(fixture, async (input) => {
        const doppel = createDoppel({ seed: 1 })
        await loadFixtures(doppel, { auth: { roles: { kept: { auth_type: 'ec2', bound_ami_id: 'a' } } } })
        const before = doppel.store.snapshot()
        try {
          await loadFixtures(doppel, input, 'p.yaml')
        } catch (error) {
          expect(error).toBeInstanceOf(FixtureError)
          for (const line of (error as FixtureError).lines()) expect(line).toMatch(/^p\.yaml: ./)
          expect(doppel.store.snapshot()).toEqual(before)
        }
      }),
      { numRuns: 150 },
    )
  })
})
