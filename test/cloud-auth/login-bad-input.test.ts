import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { aws4LoginData, createEc2Role, loginWorld } from './login-setup.ts'

const FIELDS = ['role', 'pkcs7', 'identity', 'signature', 'nonce', 'iam_http_request_method', 'iam_request_url', 'iam_request_body', 'iam_request_headers']

const base64Of = (arbitrary: fc.Arbitrary<Uint8Array | string>) => arbitrary.map((value) => Buffer.from(value).toString('base64'))

const fieldValue = fc.oneof(
  fc.jsonValue(),
  fc.string(),
  base64Of(fc.uint8Array({ maxLength: 200 })),
  base64Of(fc.json()),
  fc.constantFrom('', 'POST', 'GET', 'aHR0cHM6Ly9zdHMuYW1hem9uYXdzLmNvbS8=', 'QWN0aW9uPUdldENhbGxlcklkZW50aXR5'),
)

const loginBody = fc.dictionary(fc.constantFrom(...FIELDS, 'unknown'), fieldValue, { maxKeys: 6 })

describe('login with hostile input', () => {
  it('never answers 5xx and changes nothing when it refuses', async () => {
    const world = loginWorld()
    const instance = world.cloud.createInstance({ iam_role_name: 'web-app' })
    await createEc2Role(world, 'web-role', instance)
    await world.api('POST', 'config/client', { iam_server_id_header_value: 'x' })
    await fc.assert(
      fc.asyncProperty(loginBody, async (body) => {
        const before = JSON.stringify(world.doppel.store.snapshot())
        const reply = await world.login(body)
        expect(reply.status).toBeLessThan(500)
        expect(reply.status).toBeGreaterThanOrEqual(400)
        expect(Array.isArray(reply.body.errors)).toBe(true)
        expect(JSON.stringify(world.doppel.store.snapshot())).toBe(before)
      }),
      { numRuns: 300 },
    )
  })

  it('never answers 5xx to mutations of a valid ec2 or iam login', async () => {
    const world = loginWorld()
    const instance = world.cloud.createInstance({ iam_role_name: 'web-app' })
    const alice = world.cloud.createPrincipal({ type: 'user', name: 'alice' })
    await createEc2Role(world, 'web-role', instance)
    await world.api('POST', 'role/alice', { auth_type: 'iam', bound_iam_principal_arn: alice.arn })
    const pkcs7 = world.cloud.identityDocument(instance.instance_id, 'rsa2048')
    const iam = aws4LoginData(world, alice)
    const valid = [{ role: 'web-role', pkcs7 }, iam]
    await fc.assert(
      fc.asyncProperty(fc.nat(1), fc.constantFrom(...FIELDS), fieldValue, fc.nat(2000), fc.nat(63), async (which, field, value, at, bits) => {
        const body: Record<string, unknown> = { ...valid[which] }
        const original = body[field]
        if (typeof original === 'string' && original.length > 0 && bits % 2 === 0) {
          const index = at % original.length
          const replacement = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'[bits]!
          body[field] = original.slice(0, index) + replacement + original.slice(index + 1)
        } else {
          body[field] = value
        }
        const reply = await world.login(body)
        expect(reply.status).toBeLessThan(500)
      }),
      { numRuns: 300 },
    )
  })
})
