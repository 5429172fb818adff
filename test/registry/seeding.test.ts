import { describe, expect, it } from 'vitest'
import { RegistryFixtureError, seedRegistry, type RegistryFixture } from '../../src/services/registry/index.ts'
import { BASE, deprecateBody, newDoppel, publish, v1, v2, versionPath } from './registry-client.ts'

describe('a module built through the API', () => {
  it('is created, versioned, uploaded, read with what its code declares, and can be deprecated', async () => {
    const doppel = newDoppel()
    const files = {
      'main.tf': [
        'terraform {',
        '  required_providers {',
        '    aws = { source = "hashicorp/aws", version = ">= 5.0" }',
        '  }',
        '}',
        'variable "cidr_block" {',
        '  type        = string',
        '  description = "IPv4 range for the VPC"',
        '  default     = "10.0.0.0/16"',
        '}',
        'variable "name" {',
        '  type = string',
        '}',
        'resource "aws_vpc" "this" { cidr_block = var.cidr_block }',
        'module "labels" {',
        '  source  = "acme/labels/null"',
        '  version = "~> 1.0"',
        '}',
      ].join('\n'),
      'outputs.tf': 'output "vpc_id" {\n  value       = aws_vpc.this.id\n  description = "ID of the VPC"\n}\n',
      'README.md': '# vpc\n',
      'modules/subnets/main.tf': 'resource "aws_subnet" "private" {}\n',
    }
    const created = await publish(doppel, 'acme', 'vpc', 'aws', '1.0.0', files)
    expect(created.body.data.id).toMatch(/^modver-[A-Za-z0-9]{16}$/)
    expect(created.body.data.relationships['registry-module'].data.id).toMatch(/^mod-[A-Za-z0-9]{16}$/)

    const shown = await v2(doppel, 'GET', `${versionPath('acme', 'vpc', 'aws', 'version')}?module_version=1.0.0`)
    expect(shown.status).toBe(200)
    expect(shown.body.data.attributes).toMatchObject({ status: 'ok', version: '1.0.0', source: 'tfe-api' })

    const record = await v1(doppel, 'acme/vpc/aws/1.0.0')
    expect(record.body.root).toMatchObject({
      name: 'vpc',
      readme: '# vpc\n',
      empty: false,
      inputs: [
        { name: 'cidr_block', type: 'string', description: 'IPv4 range for the VPC', default: '"10.0.0.0/16"', required: false },
        { name: 'name', type: 'string', description: '', default: '', required: true },
      ],
      outputs: [{ name: 'vpc_id', description: 'ID of the VPC' }],
      resources: [{ name: 'this', type: 'aws_vpc' }],
      dependencies: [{ name: 'labels', source: 'acme/labels/null', version: '~> 1.0' }],
      provider_dependencies: [{ name: 'aws', namespace: 'hashicorp', source: 'hashicorp/aws', version: '>= 5.0' }],
    })
    expect(record.body.submodules).toMatchObject([{ path: 'modules/subnets', name: 'subnets', resources: [{ name: 'private', type: 'aws_subnet' }] }])

    const res = await v2(doppel, 'PATCH', versionPath('acme', 'vpc', 'aws', '1.0.0'), { body: deprecateBody() })
    expect(res.status).toBe(200)
    expect((await v1(doppel, 'acme/vpc/aws/1.0.0')).body.deprecation).toEqual({ reason: 'CVE-2026-0001', link: 'https://example.com/a/1' })
  })

  it('the root token brings an organisation into being with its first module', async () => {
    const doppel = newDoppel()
    expect((await v2(doppel, 'GET', '/api/v2/organizations/fresh/registry-modules')).body.data).toEqual([])
    await publish(doppel, 'fresh', 'net', 'aws', '0.1.0')
    expect(Object.keys(doppel.store.snapshot()['registry.organizations']!)).toEqual(['fresh'])
  })
})

describe('seedRegistry', () => {
  const fixture: RegistryFixture = {
    organizations: ['acme', { name: 'globex' }],
    tokens: [{ token: 'acme-token', organizations: ['acme'] }, { organizations: ['globex'] }],
    modules: [
      {
        organization: 'acme',
        name: 'vpc',
        provider: 'aws',
        description: 'Opinionated VPC',
        versions: [
          '1.0.0',
          {
            version: '1.1.0',
            inputs: [{ name: 'cidr_block', type: 'string', default: '"10.0.0.0/16"' }, { name: 'name' }],
            outputs: [{ name: 'vpc_id', description: 'ID of the VPC' }],
            resources: [{ name: 'this', type: 'aws_vpc' }],
            readme: '# vpc',
          },
          { version: '0.9.0', deprecation: { reason: 'too old' } },
          { version: '2.0.0', status: 'pending' },
        ],
      },
    ],
  }

  it('seeds versions that read back, default to ok, and can be deprecated over HTTP', async () => {
    const doppel = newDoppel()
    seedRegistry(doppel, fixture)
    const list = await v1(doppel, 'acme/vpc/aws/versions', 'acme-token')
    expect(list.status).toBe(200)
    expect(list.body.modules[0].versions.map((v: { version: string; deprecation: unknown }) => [v.version, v.deprecation])).toEqual([
      ['0.9.0', { reason: 'too old', link: '' }],
      ['1.0.0', null],
      ['1.1.0', null],
    ])
    const record = await v1(doppel, 'acme/vpc/aws/1.1.0')
    expect(record.body).toMatchObject({
      description: 'Opinionated VPC',
      root: {
        readme: '# vpc',
        inputs: [
          { name: 'cidr_block', type: 'string', default: '"10.0.0.0/16"', required: false },
          { name: 'name', type: '', default: '', required: true },
        ],
        provider_dependencies: [{ name: 'aws', source: 'hashicorp/aws' }],
      },
      versions: ['0.9.0', '1.0.0', '1.1.0'],
      deprecation: null,
    })
    const res = await v2(doppel, 'PATCH', versionPath('acme', 'vpc', 'aws', '1.1.0'), { body: deprecateBody(), token: 'acme-token' })
    expect(res.status).toBe(200)
    expect((await v1(doppel, 'acme/vpc/aws/1.1.0')).body.deprecation).toEqual({ reason: 'CVE-2026-0001', link: 'https://example.com/a/1' })
    const pending = await v2(doppel, 'PATCH', versionPath('acme', 'vpc', 'aws', '2.0.0'), { body: deprecateBody() })
    expect(pending.status).toBe(200)
  })

  it('generates the omitted token from the seeded random source, scoped to its organisations', async () => {
    const a = newDoppel()
    const b = newDoppel()
    seedRegistry(a, fixture)
    seedRegistry(b, fixture)
    const tokens = Object.keys(a.store.snapshot()['registry.tokens']!)
    expect(tokens).toEqual(Object.keys(b.store.snapshot()['registry.tokens']!))
    const generated = tokens.find((t) => t !== 'acme-token')!
    expect(generated).toMatch(/^[A-Za-z0-9]{14}\.atlasv1\.[A-Za-z0-9]{67}$/)
    expect((await v2(a, 'GET', '/api/v2/organizations/globex/registry-modules', { token: generated })).status).toBe(200)
    expect((await v2(a, 'GET', '/api/v2/organizations/acme/registry-modules', { token: generated })).status).toBe(404)
  })

  it('serves a downloadable tarball for a seeded version', async () => {
    const doppel = newDoppel()
    seedRegistry(doppel, fixture)
    const download = await v1(doppel, 'acme/vpc/aws/1.1.0/download')
    expect(download.status).toBe(204)
    const archive = await doppel.fetch(download.headers.get('x-terraform-get')!)
    expect(archive.status).toBe(200)
    const { readModuleArchive } = await import('../../src/services/registry/index.ts')
    const contents = readModuleArchive(new Uint8Array(await archive.arrayBuffer()))
    expect(contents.root.inputs.map((i) => [i.name, i.default, i.required])).toEqual([
      ['cidr_block', '"10.0.0.0/16"', false],
      ['name', '', true],
    ])
    expect(contents.root.outputs).toEqual([{ name: 'vpc_id', description: 'ID of the VPC' }])
  })

  const invalid: [string, unknown, RegExp][] = [
    ['a non-object fixture', 42, /the fixture must be an object/],
    ['a bad organisation name', { organizations: ['a/b'] }, /organizations\[0\] must be an organisation name/],
    ['a root token', { tokens: [{ token: 'root', organizations: ['acme'] }] }, /tokens\[0\]\.token is a root token/],
    ['tokens without organisations', { tokens: [{ token: 't' }] }, /tokens\[0\]\.organizations must be an array/],
    ['a bad module name', { modules: [{ organization: 'acme', name: '-x', provider: 'aws' }] }, /modules\[0\]\.name is not a module name/],
    ['an uppercase provider', { modules: [{ organization: 'acme', name: 'x', provider: 'AWS' }] }, /modules\[0\]\.provider/],
    ['a non-semver version', { modules: [{ organization: 'acme', name: 'x', provider: 'aws', versions: ['1.0'] }] }, /is not a semantic version/],
    ['a repeated version', { modules: [{ organization: 'acme', name: 'x', provider: 'aws', versions: ['1.0.0', '1.0.0'] }] }, /1\.0\.0 already exists/],
    [
      'a bad status',
      { modules: [{ organization: 'acme', name: 'x', provider: 'aws', versions: [{ version: '1.0.0', status: 'done' }] }] },
      /status must be "ok" or "pending"/,
    ],
    [
      'an input without a name',
      { modules: [{ organization: 'acme', name: 'x', provider: 'aws', versions: [{ version: '1.0.0', inputs: [{}] }] }] },
      /inputs\[0\]\.name must be a non-empty string/,
    ],
  ]

  it.each(invalid)('throws a clear error for %s and stores nothing', (_case, input, message) => {
    const doppel = newDoppel()
    seedRegistry(doppel, { organizations: ['keep'] })
    const before = doppel.store.snapshot()
    expect(() => seedRegistry(doppel, input as RegistryFixture)).toThrow(RegistryFixtureError)
    expect(() => seedRegistry(doppel, input as RegistryFixture)).toThrow(message)
    expect(doppel.store.snapshot()).toEqual(before)
  })

  it('refuses a version that already exists in the instance', () => {
    const doppel = newDoppel()
    seedRegistry(doppel, { modules: [{ organization: 'acme', name: 'x', provider: 'aws', versions: ['1.0.0'] }] })
    expect(() => seedRegistry(doppel, { modules: [{ organization: 'acme', name: 'x', provider: 'aws', versions: ['1.0.0'] }] })).toThrow(
      /already exists/,
    )
  })
})

describe('set-up routes under /_doppel/registry', () => {
  it('POST /_doppel/registry/tokens needs no auth and makes a token that sees only its organisations', async () => {
    const doppel = newDoppel()
    seedRegistry(doppel, { modules: [{ organization: 'acme', name: 'vpc', provider: 'aws', versions: ['1.0.0'] }] })
    const res = await doppel.fetch(`${BASE}/_doppel/registry/tokens`, { method: 'POST', body: JSON.stringify({ organizations: ['acme'] }) })
    expect(res.status).toBe(201)
    const { token } = await res.json()
    expect(typeof token).toBe('string')
    expect((await v1(doppel, 'acme/vpc/aws/1.0.0', token)).status).toBe(200)
    expect((await v2(doppel, 'GET', '/api/v2/organizations/other/registry-modules', { token })).status).toBe(404)
  })

  it('refuses a malformed token request with 400', async () => {
    const doppel = newDoppel()
    for (const body of ['{', '{"organizations":"acme"}', '[]']) {
      const res = await doppel.fetch(`${BASE}/_doppel/registry/tokens`, { method: 'POST', body })
      expect(res.status).toBe(400)
      expect((await res.json()).errors).toHaveLength(1)
    }
  })

  it('POST /_doppel/registry/fixtures loads a fixture and reports generated tokens', async () => {
    const doppel = newDoppel()
    const res = await doppel.fetch(`${BASE}/_doppel/registry/fixtures`, {
      method: 'POST',
      body: JSON.stringify({ tokens: [{ organizations: ['acme'] }], modules: [{ organization: 'acme', name: 'vpc', provider: 'aws', versions: ['1.0.0'] }] }),
    })
    expect(res.status).toBe(201)
    const { tokens } = await res.json()
    expect(tokens).toHaveLength(1)
    expect((await v1(doppel, 'acme/vpc/aws/1.0.0', tokens[0].token)).status).toBe(200)
  })
})

describe('reset', () => {
  it('empties the registry and it works again afterwards', async () => {
    const doppel = newDoppel()
    seedRegistry(doppel, { modules: [{ organization: 'acme', name: 'vpc', provider: 'aws', versions: ['1.0.0'] }] })
    await doppel.reset()
    expect((await v1(doppel, 'acme/vpc/aws/versions')).status).toBe(404)
    await publish(doppel, 'acme', 'vpc', 'aws', '1.0.0')
    expect((await v2(doppel, 'PATCH', versionPath('acme', 'vpc', 'aws', '1.0.0'), { body: deprecateBody() })).status).toBe(200)
  })
})
