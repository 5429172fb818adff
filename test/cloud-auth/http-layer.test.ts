import { describe, expect, it } from 'vitest'
import { errors, managementClient, multi } from './management-client.ts'
import { createDoppel } from '../../src/features/doppel/index.ts'

const EC2_ROLE = { auth_type: 'ec2', bound_ami_id: 'ami-1' }

describe('HTTP rules of the management endpoints (docs/reference/cloud-auth.md §1)', () => {
  describe('operations', () => {
    it('lists with the LIST verb and with GET ?list=true, with or without a trailing slash', async () => {
      const api = managementClient()
      await api.write('role/b', EC2_ROLE)
      await api.write('role/a', EC2_ROLE)
      for (const answer of [
        await api.list('roles'),
        await api.list('roles/'),
        await api.list('role'),
        await api.read('roles?list=true'),
        await api.read('role/?list=1'),
      ]) {
        expect(answer.status).toBe(200)
        expect(answer.body.data).toEqual({ keys: ['a', 'b'] })
      }
    })

    it('answers a bad list value with 400 and an empty error list', async () => {
      const answer = await managementClient().read('roles?list=maybe')
      expect(answer.status).toBe(400)
      expect(answer.body).toEqual(errors())
    })

    it('treats list=false as a plain read, which a list path does not support', async () => {
      const answer = await managementClient().read('roles?list=false')
      expect(answer.status).toBe(405)
      expect(answer.body).toEqual(errors(multi('unsupported operation')))
    })

    it('answers 405 with the multierror body for operations a path lacks', async () => {
      const api = managementClient()
      for (const [method, path] of [
        ['GET', 'roles'],
        ['DELETE', 'config/identity'],
        ['GET', 'tidy/roletag-denylist'],
        ['GET', 'config/rotate-root'],
        ['POST', 'roles'],
        ['PUT', 'identity-accesslist/i-1'],
      ] as const) {
        const answer = await api.call(method, path)
        expect(answer.status, `${method} ${path}`).toBe(405)
        expect(answer.body).toEqual(errors(multi('unsupported operation')))
      }
    })

    it('answers 405 with an empty error list for methods the service does not know', async () => {
      const answer = await managementClient().call('OPTIONS', 'roles')
      expect(answer.status).toBe(405)
      expect(answer.body).toEqual(errors())
    })

    it('wants merge-patch JSON for PATCH (415), and then supports it nowhere (405)', async () => {
      const api = managementClient()
      const plain = await api.call('PATCH', 'role/a', { body: { bound_ami_id: 'x' } })
      expect(plain.status).toBe(415)
      expect(plain.body.errors).toHaveLength(1)
      const merge = await api.call('PATCH', 'role/a', {
        body: { bound_ami_id: 'x' },
        headers: { 'Content-Type': 'application/merge-patch+json' },
      })
      expect(merge.status).toBe(405)
      expect(merge.body).toEqual(errors(multi('unsupported operation')))
    })
  })

  describe('routing', () => {
    it('answers unknown paths with 404 and the multierror body', async () => {
      const api = managementClient()
      for (const path of ['nope', 'role/a/b', 'config', 'role/-a', 'role/a-', 'role/a%20b', 'config/sts/x/', '']) {
        const answer = await api.read(path)
        expect(answer.status, path).toBe(404)
        expect(answer.body).toEqual(errors(multi('unsupported path')))
      }
    })

    it('accepts names of letters, digits and _ with - and . inside', async () => {
      const api = managementClient()
      for (const name of ['a', 'A_1', 'a-b.c', 'x.-y', '9']) {
        expect((await api.write(`role/${name}`, EC2_ROLE)).status, name).toBe(204)
      }
    })

    it("routes a LIST by its path with the trailing slash: the token store's paths stay the token store's", async () => {
      const doppel = createDoppel()
      const list = (path: string) => doppel.fetch(`http://doppel.test/v1/${path}?list=true`, { headers: { 'X-Service-Token': 'root' } })
      for (const path of ['auth/token', 'auth/token/', 'auth/token/lookup-self/x']) {
        const answer = await list(path)
        expect(answer.status, path).toBe(404)
        expect(await answer.json(), path).toEqual(errors(multi('unsupported path')))
      }
      expect(await (await list('auth')).json()).toEqual(errors('no handler for route "auth/". route entry not found.'))
      // sys/auth/ matches no path of the system backend (docs/reference/cloud-auth.md §1.4); a mount's path takes no LIST
      expect(await (await list('sys/auth')).json()).toEqual(errors(multi('unsupported path')))
      expect(await (await list('sys/auth/cloud')).json()).toEqual(errors(multi('unsupported operation')))
    })

    it('answers paths outside any mount with the router message once the token is good', async () => {
      const api = managementClient()
      const answer = await api.read('/v1/secret/data/x')
      expect(answer.status).toBe(404)
      expect(answer.body).toEqual(errors('no handler for route "secret/data/x". route entry not found.'))
      expect((await api.read('/v1/secret/data/x', { anonymous: true })).status).toBe(403)
    })

    it('lets path values win over body fields of the same name, with a warning when there is a body', async () => {
      const api = managementClient()
      await api.write('role/real', { ...EC2_ROLE, role_tag: 'tag' })
      const answer = await api.write('role/real/tag', { role: 'other' })
      expect(answer.status).toBe(200)
      expect(answer.body.warnings).toEqual([
        "Endpoint replaced the value of these parameters with the values captured from the endpoint's path: [role]",
      ])
      expect(answer.body.data.tag_value).toContain(':r=real:')
    })
  })

  describe('token check', () => {
    it('refuses a missing or unknown token with 403 permission denied and changes nothing', async () => {
      const api = managementClient()
      await api.read('config/identity')
      const before = api.doppel.store.snapshot()
      const attempts: Record<string, string>[] = [{}, { 'X-Service-Token': 'nope' }, { Authorization: 'Bearer nope' }, { 'X-Vault-Token': 'root' }]
      for (const headers of attempts) {
        const answer = await api.write('role/a', EC2_ROLE, { anonymous: true, headers })
        expect(answer.status).toBe(403)
        expect(answer.body).toEqual(errors('permission denied'))
      }
      expect(api.doppel.store.snapshot()).toEqual(before)
    })

    it('accepts the root token as a Bearer token', async () => {
      const api = managementClient()
      const answer = await api.write('role/a', EC2_ROLE, { anonymous: true, headers: { Authorization: 'Bearer root' } })
      expect(answer.status).toBe(204)
    })

    it('accepts X-Vault-Token in the vault profile, which also mounts the method at aws', async () => {
      const api = managementClient({ profile: 'vault' })
      const answer = await api.write('role/a', EC2_ROLE, {
        anonymous: true,
        headers: { 'X-Vault-Token': 'root' },
        mount: 'aws',
      })
      expect(answer.status).toBe(204)
      expect((await api.read('role/a', { mount: 'aws' })).status).toBe(200)
      expect((await api.read('role/a', { mount: 'cloud' })).status).toBe(404)
    })

    it('honours custom root tokens', async () => {
      const api = managementClient({ rootTokens: ['s3cret'] })
      expect((await api.read('config/identity')).status).toBe(403)
      expect((await api.read('config/identity', { headers: { 'X-Service-Token': 's3cret' } })).status).toBe(200)
    })

    it('needs no token for login and ignores one; other login methods get the plain 405', async () => {
      const api = managementClient()
      const anonymous = await api.write('login', {}, { anonymous: true })
      expect(anonymous.status).toBe(400)
      const withToken = await api.write('login', {}, { headers: { 'X-Service-Token': 'garbage' } })
      expect(withToken.status).toBe(400)
      const get = await api.read('login', { anonymous: true })
      expect(get.status).toBe(405)
      expect(get.body).toEqual(errors('unsupported operation'))
    })
  })

  describe('request bodies', () => {
    it('answers malformed JSON and JSON that is not an object with 400 error parsing JSON', async () => {
      const api = managementClient()
      for (const body of ['{', '[1]', '"x"', '12', 'nul', 'nullx', '{"a":}', '\ufeff{}']) {
        const answer = await api.write('role/a', body)
        expect(answer.status, body).toBe(400)
        expect(answer.body).toEqual(errors('error parsing JSON'))
      }
      expect((await api.read('role/a')).status).toBe(404)
    })

    it('takes an empty body, a null body and trailing text after an object as the real decoder does', async () => {
      const api = managementClient()
      expect((await api.write('config/client', '')).status).toBe(204)
      expect((await api.write('config/client', 'null')).status).toBe(204)
      expect((await api.write('config/client', 'null trailing')).status).toBe(204)
      expect((await api.write('config/client', '{"endpoint":"e"} trailing')).status).toBe(204)
      expect((await api.read('config/client')).body.data.endpoint).toBe('e')
    })

    it('reads a duration given as null as no duration, as the SDK does: an update keeps the stored one', async () => {
      const api = managementClient()
      expect((await api.write('role/n', { ...EC2_ROLE, token_ttl: '1h' })).status).toBe(204)
      expect((await api.write('role/n', { token_ttl: null, token_max_ttl: null })).status).toBe(204)
      expect((await api.read('role/n')).body.data).toMatchObject({ token_ttl: 3600, token_max_ttl: 0 })
    })

    it('bounds a form body to 10,000 fields in each profile (the vault profile reads it whole first)', async () => {
      for (const profile of ['service', 'vault'] as const) {
        const doppel = createDoppel({ profile, cloudAuth: { env: {} } })
        const headers = { 'X-Vault-Token': 'root', 'X-Service-Token': 'root', 'Content-Type': 'application/x-www-form-urlencoded' }
        const form = (fields: number) => ['endpoint=e', ...Array.from({ length: fields - 1 }, (_, i) => `f${i}=1`)].join('&')
        const url = 'http://doppel.test/v1/auth/cloud/config/client'
        expect((await doppel.fetch(url, { method: 'POST', headers, body: form(10_000) })).status, profile).toBe(204)
        const refused = await doppel.fetch(url, { method: 'POST', headers, body: form(10_001) })
        expect([refused.status, await refused.json()], profile).toEqual([400, { errors: ['error parsing form data'] }])
      }
    })

    it("reads strings as Go's decoder does: a lone surrogate escape and each byte that starts no UTF-8 are U+FFFD, in each profile", async () => {
      for (const profile of ['service', 'vault'] as const) {
        const doppel = createDoppel({ profile, cloudAuth: { env: {} } })
        const body = Buffer.concat([Buffer.from('{"endpoint":"a\\ud800b\\ud83d\\ude00c'), Buffer.from([0xe2, 0x82]), Buffer.from('d"}')])
        const headers = { 'X-Vault-Token': 'root', 'X-Service-Token': 'root', 'Content-Type': 'application/json' }
        const url = 'http://doppel.test/v1/auth/cloud/config/client'
        expect((await doppel.fetch(url, { method: 'POST', headers, body })).status, profile).toBe(204)
        expect((await (await doppel.fetch(url, { headers })).json()).data.endpoint, profile).toBe('a\ufffdb😀c\ufffd\ufffdd')
      }
    })

    it('refuses a body over 32 MiB with 413', async () => {
      const api = managementClient()
      const big = JSON.stringify({ endpoint: 'x'.repeat(32 * 1024 * 1024) })
      const answer = await api.write('config/client', big)
      expect(answer.status).toBe(413)
      expect(answer.body).toEqual(errors('error parsing JSON'))
      expect((await api.read('config/client')).status).toBe(404)
    })

    it('reads form-encoded bodies, joining repeated keys with commas', async () => {
      const api = managementClient()
      const answer = await api.call('POST', 'role/f', {
        body: 'auth_type=ec2&bound_ami_id=ami-1&bound_ami_id=ami-2&policies=a+b',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      })
      expect(answer.status).toBe(204)
      const role = (await api.read('role/f')).body.data
      expect(role.bound_ami_id).toEqual(['ami-1', 'ami-2'])
      expect(role.token_policies).toEqual(['a b'])
    })

    it('takes a form-typed body that starts like JSON as JSON', async () => {
      const api = managementClient()
      const answer = await api.call('POST', 'config/client', {
        body: ' {"endpoint":"json"}',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      })
      expect(answer.status).toBe(204)
      expect((await api.read('config/client')).body.data.endpoint).toBe('json')
    })

    it("tells a form from JSON as Vault does, in each profile, whole or in pieces: the Content-Type as Go's mime package parses it, then the body's first 512 bytes", async () => {
      const form = 'application/x-www-form-urlencoded'
      const json = (ttl: number) => `{"token_ttl":${ttl}}`
      // [Content-Type, body, the TTL read back (1: the write set none, its one field unknown), or the status of a refusal]
      const cases: [string, string, number][] = [
        [form, 'token_ttl=61', 61],
        [`${form};`, 'token_ttl=62', 62],
        [`Application/X-WWW-Form-Urlencoded ; charset="utf-8"`, 'token_ttl=63', 63],
        // Go cannot parse these Content-Types: no form, so the body is JSON.
        [`${form}; charset`, json(64), 64],
        [`${form}; a=1; a=2`, json(65), 65],
        [`${form}/x`, 'token_ttl=66', 400],
        [`${form}; charset`, 'token_ttl=70', 400],
        [form, `${' '.repeat(511)}${json(67)}`, 67],
        // Past the 512 bytes Vault looks at, a form: one field, named with the whole text.
        [form, `${'\n'.repeat(512)}${json(68)}`, 1],
        [form, `${' '.repeat(600)}token_ttl=69`, 1],
      ]
      for (const profile of ['service', 'vault'] as const) {
        for (const cut of [undefined, 1, 511, 512, 513]) {
          const doppel = createDoppel({ profile, cloudAuth: { env: {} } })
          const role = 'http://doppel.test/v1/auth/cloud/role/r'
          const auth = { 'X-Vault-Token': 'root', 'X-Service-Token': 'root' }
          for (const [contentType, body, expected] of cases) {
            const what = `${profile}, cut at ${cut}: ${contentType} ${JSON.stringify(body.trim())}`
            const made = await doppel.fetch(role, { method: 'POST', headers: { ...auth, 'Content-Type': 'application/json' }, body: '{"auth_type":"ec2","bound_ami_id":"ami-1","token_ttl":1}' })
            expect(made.status, what).toBe(204)
            const bytes = new TextEncoder().encode(body)
            const pieces = cut === undefined ? body : new Blob([bytes.subarray(0, cut), bytes.subarray(cut)]).stream()
            const wrote = await doppel.fetch(role, { method: 'POST', headers: { ...auth, 'Content-Type': contentType }, body: pieces, duplex: 'half' } as RequestInit)
            if (expected === 400) {
              expect(wrote.status, what).toBe(400)
              continue
            }
            expect(wrote.status, what).toBe(204)
            const read = (await (await doppel.fetch(role, { headers: auth })).json()) as { data: { token_ttl: number } }
            expect(read.data.token_ttl, what).toBe(expected)
          }
        }
      }
    })

    it('takes query parameters as data on GET and DELETE', async () => {
      const api = managementClient()
      const answer = await api.read('config/identity?foo=1&bar=2')
      expect(answer.body.warnings).toEqual(['Endpoint ignored these unrecognized parameters: [bar foo]'])
      const known = await api.read('config/identity?iam_alias=x')
      expect(known.body.warnings).toBeNull()
      const typed = await api.remove('config/client?max_retries=abc')
      expect(typed.status).toBe(400)
      expect(typed.body).toEqual(
        errors(
          `Field validation failed: error converting input for field "max_retries": cannot parse '' as int: strconv.ParseInt: parsing "abc": invalid syntax`,
        ),
      )
    })
  })

  describe('field conversion errors', () => {
    it('omit the Field validation failed prefix on writes of paths with an existence check', async () => {
      const api = managementClient()
      const cases: [string, Record<string, unknown>, string][] = [
        ['role/a', { resolve_aws_unique_ids: 'maybe' }, `error converting input for field "resolve_aws_unique_ids": cannot parse '' as bool: strconv.ParseBool: parsing "maybe": invalid syntax`],
        ['role/a', { token_ttl: '-5' }, `error converting input for field "token_ttl": cannot provide negative value '-5'`],
        ['role/a', { token_ttl: '5x' }, `error converting input for field "token_ttl": time: unknown unit "x" in duration "5x"`],
        ['role/a', { token_num_uses: '1.5' }, `error converting input for field "token_num_uses": cannot parse '' as int: strconv.ParseInt: parsing "1.5": invalid syntax`],
        ['role/a', { role_tag: ['a', 'b'] }, `error converting input for field "role_tag": '' expected type 'string', got unconvertible type '[]interface {}', value: '[a b]'`],
        ['config/client', { max_retries: true, endpoint: { a: 1 } }, `error converting input for field "endpoint": '' expected type 'string', got unconvertible type 'map[string]interface {}', value: 'map[a:1]'`],
        ['config/sts/123', { sts_role: [] }, `error converting input for field "sts_role": '' expected type 'string', got unconvertible type '[]interface {}', value: '[]'`],
        ['config/certificate/c', { type: {} }, `error converting input for field "type": '' expected type 'string', got unconvertible type 'map[string]interface {}', value: 'map[]'`],
        ['config/tidy/roletag-denylist', { safety_buffer: true }, `error converting input for field "safety_buffer": could not parse duration from input`],
      ]
      for (const [path, body, message] of cases) {
        const answer = await api.write(path, body)
        expect(answer.status, path).toBe(400)
        expect(answer.body).toEqual(errors(message))
      }
    })

    it('carry the prefix on paths without an existence check', async () => {
      const api = managementClient()
      const cases: [string, Record<string, unknown>, string][] = [
        ['config/identity', { iam_metadata: [{ a: 1 }] }, `error converting input for field "iam_metadata": 1 error(s) decoding:\n\n* '[0]' expected type 'string', got unconvertible type 'map[string]interface {}', value: 'map[a:1]'`],
        ['tidy/identity-accesslist', { safety_buffer: '1.5d' }, `error converting input for field "safety_buffer": strconv.ParseInt: parsing "1.5": invalid syntax`],
        ['role/a/tag', { disallow_reauthentication: '2' }, `error converting input for field "disallow_reauthentication": cannot parse '' as bool: strconv.ParseBool: parsing "2": invalid syntax`],
      ]
      for (const [path, body, message] of cases) {
        const answer = await api.write(path, body)
        expect(answer.status, path).toBe(400)
        expect(answer.body).toEqual(errors(`Field validation failed: ${message}`))
      }
    })

    it('treat JSON numbers as their text, as the real decoder does', async () => {
      const api = managementClient()
      expect((await api.write('role/n', { ...EC2_ROLE, disallow_reauthentication: 1 })).status).toBe(204)
      const two = await api.write('role/n', { disallow_reauthentication: 2 })
      expect(two.body.errors[0]).toContain('strconv.ParseBool: parsing "2": invalid syntax')
      const float = await api.write('role/n', { token_ttl: 1.5 })
      expect(float.body).toEqual(errors('error converting input for field "token_ttl": time: missing unit in duration "1.5"'))
      expect((await api.write('role/n', '{"role_tag":1.0}')).status).toBe(204)
      expect((await api.read('role/n')).body.data.role_tag).toBe('1.0')
    })
  })

  describe('responses', () => {
    it('carry JSON content type and no-store on 200, 204, 4xx', async () => {
      const api = managementClient()
      for (const answer of [
        await api.read('config/identity'),
        await api.write('config/client', {}),
        await api.read('role/none'),
        await api.read('roles'),
        await api.read('config/identity', { anonymous: true }),
      ]) {
        expect(answer.headers.get('content-type')).toBe('application/json')
        expect(answer.headers.get('cache-control')).toBe('no-store')
      }
    })

    it('answer a read of a missing item and an empty list with 404 and no errors', async () => {
      const api = managementClient()
      for (const answer of [await api.read('role/none'), await api.list('roles'), await api.list('config/sts')]) {
        expect(answer.status).toBe(404)
        expect(answer.body).toEqual(errors())
      }
    })

    it('use the envelope on 200', async () => {
      const answer = await managementClient().read('config/identity')
      expect(Object.keys(answer.body)).toEqual([
        'request_id',
        'lease_id',
        'renewable',
        'lease_duration',
        'data',
        'wrap_info',
        'warnings',
        'auth',
        'mount_type',
      ])
      expect(answer.body).toMatchObject({ lease_id: '', renewable: false, lease_duration: 0, wrap_info: null, auth: null })
      expect(answer.body.request_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
    })

    it('warn about unknown fields only when a body is returned', async () => {
      const api = managementClient()
      const silent = await api.write('role/w', { ...EC2_ROLE, hmac_key: 'x', zz: 1 })
      expect(silent.status).toBe(204)
      const tagged = await api.write('role/w', { role_tag: 't' })
      expect(tagged.status).toBe(204)
      const answer = await api.write('role/w/tag', { zz: 1, aa: 2 })
      expect(answer.body.warnings).toEqual(['Endpoint ignored these unrecognized parameters: [aa zz]'])
    })
  })
})
