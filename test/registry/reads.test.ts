import { gunzipSync } from 'node:zlib'
import { beforeEach, describe, expect, it } from 'vitest'
import type { Doppel } from '../../src/features/doppel/index.ts'
import { seedRegistry, readTar } from '../../src/services/registry/index.ts'
import { BASE, newDoppel, publish, v1, v2 } from './registry-client.ts'

let doppel: Doppel

beforeEach(async () => {
  doppel = newDoppel()
  await publish(doppel, 'acme', 'vpc', 'aws', '1.0.0', { 'main.tf': 'resource "aws_vpc" "this" {}\n' })
  await publish(doppel, 'acme', 'vpc', 'aws', '1.2.0', { 'main.tf': 'resource "aws_vpc" "this" {}\n', 'extra.tf': '# 1.2\n' })
  await publish(doppel, 'acme', 'vpc', 'aws', '2.0.0-beta.1')
  await publish(doppel, 'acme', 'vpc', 'gcp', '0.1.0')
})

describe('registry protocol reads', () => {
  it('versions lists only published versions in semver order, each with a deprecation key', async () => {
    await v2(doppel, 'POST', '/api/v2/organizations/acme/registry-modules/private/acme/vpc/aws/versions', {
      body: { data: { type: 'registry-module-versions', attributes: { version: '3.0.0' } } },
    })
    const res = await v1(doppel, 'acme/vpc/aws/versions')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/json')
    expect(res.body.modules).toHaveLength(1)
    expect(res.body.modules[0].source).toBe('acme/vpc/aws')
    expect(res.body.modules[0].versions.map((v: { version: string }) => v.version)).toEqual(['1.0.0', '1.2.0', '2.0.0-beta.1'])
    for (const v of res.body.modules[0].versions) {
      expect(v).toHaveProperty('deprecation', null)
      expect(v).toHaveProperty('submodules')
      expect(v.root).toHaveProperty('dependencies')
    }
    expect(res.body.modules[0].versions[0].root.providers).toEqual([{ name: 'aws', version: '' }])
  })

  it('the single-version record carries the documented fields, providers and versions', async () => {
    const res = await v1(doppel, 'acme/vpc/aws/1.0.0')
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({
      id: 'acme/vpc/aws/1.0.0',
      owner: '',
      namespace: 'acme',
      name: 'vpc',
      version: '1.0.0',
      provider: 'aws',
      description: '',
      tag: '',
      downloads: 0,
      verified: false,
      providers: ['aws', 'gcp'],
      versions: ['1.0.0', '1.2.0', '2.0.0-beta.1'],
      deprecation: null,
    })
    expect(res.body.published_at).toBe('2026-03-02T10:00:00.000Z')
  })

  it('the module read answers the latest stable version', async () => {
    const res = await v1(doppel, 'acme/vpc/aws')
    expect(res.status).toBe(200)
    expect(res.body.version).toBe('1.2.0')
  })

  it('download answers 204 with an X-Terraform-Get URL that serves the uploaded tarball without a token', async () => {
    const res = await v1(doppel, 'acme/vpc/aws/1.2.0/download')
    expect(res.status).toBe(204)
    expect(res.text).toBe('')
    const location = res.headers.get('x-terraform-get')!
    expect(location.startsWith(`${BASE}/_archivist/`)).toBe(true)
    const archive = await doppel.fetch(location)
    expect(archive.status).toBe(200)
    const entries = readTar(gunzipSync(new Uint8Array(await archive.arrayBuffer())))
    expect(entries.map((e) => e.path).sort()).toEqual(['extra.tf', 'main.tf'])
    expect((await v1(doppel, 'acme/vpc/aws/1.2.0')).body.downloads).toBe(1)
  })

  it('the module download redirects (302) to the latest version download', async () => {
    const res = await v1(doppel, 'acme/vpc/aws/download')
    expect(res.status).toBe(302)
    expect(res.headers.get('location')).toBe('/api/registry/v1/modules/acme/vpc/aws/1.2.0/download')
  })

  it('answers 401 {"errors":["Unauthorized"]} without a valid token and 404 {"errors":["Not Found"]} on a miss', async () => {
    seedRegistry(doppel, { tokens: [{ token: 'globex-token', organizations: ['globex'] }] })
    for (const path of ['acme/vpc/aws/versions', 'acme/vpc/aws/1.0.0', 'acme/vpc/aws', 'acme/vpc/aws/1.0.0/download']) {
      for (const token of [null, 'bogus']) {
        const res = await v1(doppel, path, token)
        expect(res.status).toBe(401)
        expect(res.body).toEqual({ errors: ['Unauthorized'] })
      }
      const hidden = await v1(doppel, path, 'globex-token')
      expect(hidden.status).toBe(404)
      expect(hidden.body).toEqual({ errors: ['Not Found'] })
    }
    for (const path of ['acme/vpc/azurerm/versions', 'acme/nope/aws/1.0.0', 'acme/vpc/aws/9.0.0', 'acme/vpc/aws/9.0.0/download']) {
      const res = await v1(doppel, path)
      expect(res.status).toBe(404)
      expect(res.headers.get('content-type')).toBe('application/json')
      expect(res.body).toEqual({ errors: ['Not Found'] })
    }
  })

  it('an archivist object that does not exist is a 404', async () => {
    const res = await doppel.fetch(`${BASE}/_archivist/v1/object/nothing-here`)
    expect(res.status).toBe(404)
  })
})

describe('discovery and ping', () => {
  it('serves /.well-known/terraform.json as application/json with modules.v1', async () => {
    const res = await doppel.fetch(`${BASE}/.well-known/terraform.json`)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/json')
    const body = await res.json()
    expect(body['modules.v1']).toBe('/api/registry/v1/modules/')
    expect(body['tfe.v2']).toBe('/api/v2/')
  })

  it('GET /api/v2/ping answers with the headers go-tfe reads', async () => {
    const res = await doppel.fetch(`${BASE}/api/v2/ping`)
    expect(res.status).toBe(200)
    expect(res.headers.get('tfp-api-version')).toBeTruthy()
    expect(res.headers.get('tfp-appname')).toBe('HCP Terraform')
    expect(res.headers.get('x-ratelimit-limit')).toBe('30')
    expect(res.headers.get('x-tfe-version')).toBeTruthy()
  })
})
