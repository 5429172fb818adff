import { Validator } from '@seriousme/openapi-schema-validator'
import { describe, expect, test } from 'vitest'
import { ENDPOINTS, API_ROUTES } from '../../src/services/cloud-auth/index.ts'
import { main } from '../../src/cli/main.ts'
import { createDoppel } from '../../src/features/doppel/index.ts'
import { routeTemplate } from '../../src/core/routing/index.ts'
import { ARCHIVIST_ROUTES, MANAGEMENT_ROUTES, READ_ROUTES } from '../../src/services/registry/index.ts'

type Doc = { openapi: string; paths: Record<string, Record<string, { responses?: Record<string, unknown> }>> }

async function fetchDocument(profile: 'service' | 'vault' = 'service'): Promise<Doc> {
  const response = await createDoppel({ profile }).fetch('http://doppel.test/_doppel/openapi.json')
  expect(response.status).toBe(200)
  return (await response.json()) as Doc
}

const HTTP_OF = { read: 'get', list: 'get', update: 'post', create: 'post', delete: 'delete', patch: 'patch' } as const

describe('GET /_doppel/openapi.json', () => {
  test('is a valid OpenAPI 3.1 document', async () => {
    for (const profile of ['service', 'vault'] as const) {
      const document = await fetchDocument(profile)
      expect(document.openapi).toBe('3.1.0')
      const result = await new Validator().validate(document as never)
      expect(result.errors).toBeUndefined()
      expect(result.valid).toBe(true)
    }
  })

  test('has every route of the auth route table, with each of its operations, on every mount', async () => {
    const vault = await fetchDocument('vault')
    for (const mount of ['cloud', 'aws']) {
      for (const endpoint of ENDPOINTS) {
        const item = vault.paths[`/v1/auth/${mount}/${routeTemplate(endpoint).template}`]
        expect(item, endpoint.path).toBeDefined()
        for (const operation of Object.keys(endpoint.operations) as (keyof typeof HTTP_OF)[]) {
          expect(item![HTTP_OF[operation]], `${operation} ${endpoint.path}`).toBeDefined()
        }
      }
      expect(vault.paths[`/v1/auth/${mount}/login`]?.post).toBeDefined()
      expect(vault.paths[`/v1/auth/${mount}/identity-whitelist/{instance_id}`]?.get).toMatchObject({ deprecated: true })
    }
  })

  test('has every other row of the auth method under /v1/ with each method it describes, where the profile serves it', async () => {
    const documents = { service: await fetchDocument('service'), vault: await fetchDocument('vault') }
    for (const [profile, document] of Object.entries(documents)) {
      for (const row of API_ROUTES) {
        if (row.reads === 'mount') continue
        const item = document.paths[`/v1/${routeTemplate(row).template}`]
        if (!row.describe || (profile === 'service' && row.profile)) {
          expect(item, `${profile} ${row.path}`).toBeUndefined()
          continue
        }
        for (const method of Object.keys(row.describe)) expect(item?.[method], `${profile} ${method} ${row.path}`).toBeDefined()
      }
    }
    expect(documents.vault.paths['/v1/sys/internal/specs/openapi']?.get).toMatchObject({ 'x-vault-unauthenticated': true })
    expect(documents.vault.paths['/v1/auth/token/lookup-self']?.get).toBeDefined()
    expect(documents.vault.paths['/v1/sys/auth/{path}']?.post).toBeDefined()
  })

  test("documents the statuses the auth service answers: 404 for a path value a route does not take, and Vault's 500s in the vault profile only", async () => {
    const statuses = (document: Doc, path: string, method: string) => Object.keys(document.paths[path]![method]!.responses!)
    const service = await fetchDocument('service')
    expect(statuses(service, '/v1/auth/cloud/role/{role}', 'post')).toEqual(['200', '204', '400', '403', '404', '405'])
    expect(statuses(service, '/v1/auth/cloud/config/client', 'post')).not.toContain('404')
    expect(JSON.stringify(service.paths)).not.toContain('"500"')
    const vault = await fetchDocument('vault')
    expect(statuses(vault, '/v1/auth/aws/roletag-denylist/{role_tag}', 'post')).toContain('500')
    expect(statuses(vault, '/v1/auth/aws/login', 'post')).toContain('500')
    expect(statuses(vault, '/v1/auth/token/renew-self', 'post')).toContain('500')
    expect(statuses(vault, '/v1/auth/token/lookup-self', 'get')).not.toContain('500')
  })

  test('has every registry route with its method, and error envelopes', async () => {
    const document = await fetchDocument()
    for (const route of [...MANAGEMENT_ROUTES.rows, ...READ_ROUTES.rows, ...ARCHIVIST_ROUTES.rows]) {
      const path = route.path.replace(/:([A-Za-z_]+)/g, '{$1}')
      expect(document.paths[path]?.[route.method.toLowerCase()], `${route.method} ${route.path}`).toBeDefined()
    }
    const patch = document.paths['/api/v2/organizations/{org}/registry-modules/private/{namespace}/{name}/{provider}/{version}']!.patch!
    expect(Object.keys(patch.responses!)).toEqual(expect.arrayContaining(['200', '401', '404', '415', '422']))
    expect(JSON.stringify(document)).toContain('#/components/schemas/AuthErrors')
  })

  test('every documented auth path reaches a handler (none answers "unsupported path")', async () => {
    const doppel = createDoppel()
    const document = await fetchDocument()
    for (const path of Object.keys(document.paths).filter((p) => p.startsWith('/v1/auth/cloud/'))) {
      const concrete = path.replace(/\{[a-z_]+\}/g, 'x1')
      const response = await doppel.fetch(`http://doppel.test${concrete}`, { headers: { 'X-Service-Token': 'root' } })
      expect(await response.text(), path).not.toContain('unsupported path')
    }
  })

  test('anything but GET is refused with 405', async () => {
    const response = await createDoppel().fetch('http://doppel.test/_doppel/openapi.json', { method: 'POST' })
    expect(response.status).toBe(405)
    expect(await response.json()).toEqual({ errors: ['unsupported operation'] })
  })
})

describe('GET /v1/sys/internal/specs/openapi', () => {
  test('the Vault profile answers with the method on its Vault mount, relative to /v1', async () => {
    const response = await createDoppel({ profile: 'vault' }).fetch('http://doppel.test/v1/sys/internal/specs/openapi')
    expect(response.status).toBe(200)
    const document = (await response.json()) as Doc
    expect(Object.keys(document.paths)).toContain('/auth/aws/role/{role}')
    expect(Object.keys(document.paths).some((p) => p.startsWith('/v1/') || p.startsWith('/api/'))).toBe(false)
    expect((await new Validator().validate(document as never)).valid).toBe(true)
    const generic = (await (await createDoppel({ profile: 'vault' }).fetch('http://doppel.test/v1/sys/internal/specs/openapi?generic_mount_paths=true')).json()) as Doc
    expect(Object.keys(generic.paths)).toContain('/auth/{aws_mount_path}/login')
  })

  test('a bad generic_mount_paths is a 400 in the service envelope', async () => {
    const response = await createDoppel({ profile: 'vault' }).fetch('http://doppel.test/v1/sys/internal/specs/openapi?generic_mount_paths=maybe')
    expect(response.status).toBe(400)
    expect(((await response.json()) as { errors: string[] }).errors[0]).toMatch(/^Field validation failed: error converting input for field "generic_mount_paths"/)
  })

  test('the service profile has no such path', async () => {
    const response = await createDoppel().fetch('http://doppel.test/v1/sys/internal/specs/openapi', { headers: { 'X-Service-Token': 'root' } })
    expect(response.status).toBe(404)
  })
})

describe('doppel openapi', () => {
  test('prints the same document; a bad flag is one line and the pointer to --help, exit 1', async () => {
    let out = ''
    let err = ''
    const io = { stdout: (s: string) => (out += s), stderr: (s: string) => (err += s), cwd: process.cwd() }
    expect(await main(['openapi'], io)).toBe(0)
    expect(JSON.parse(out)).toEqual(await fetchDocument())
    expect(await main(['openapi', '--profile', 'nope'], io)).toBe(1)
    expect(err.trim().split('\n')).toEqual([expect.stringContaining('--profile'), 'Run "doppel openapi --help" for usage.'])
  })
})
