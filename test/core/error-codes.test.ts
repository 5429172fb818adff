import { describe, expect, it } from 'vitest'
import { createDoppel, DoppelError, ERROR_CODES, isDoppelError, TenantRegistry, type DoppelErrorCode } from '../../src/index.ts'
import { loadFixtures, parseLabelExpression, parseScenario } from '../../src/faces/scenario/index.ts'
import { seedRegistry } from '../../src/services/registry/index.ts'

/** What `run` throws, caught: the error a caller would match on. */
async function thrown(run: () => unknown): Promise<unknown> {
  try {
    await run()
  } catch (error) {
    return error
  }
  throw new Error('nothing was thrown')
}

describe('errors carry stable codes through the public API', () => {
  const cases: [string, string, (doppel: ReturnType<typeof createDoppel>) => unknown][] = [
    ['a bad fixture', 'DOPPEL_INVALID_FIXTURE', (doppel) => loadFixtures(doppel, 'auth: { roles: 5 }\n', 'f.yaml')],
    ['a bad scenario', 'DOPPEL_INVALID_SCENARIO', () => parseScenario('name: x\nsteps: 5\n', 's.yaml')],
    ['a bad snapshot', 'DOPPEL_INVALID_SNAPSHOT', (doppel) => doppel.restore({ version: 'nope' })],
    ['a bad fault', 'DOPPEL_INVALID_FAULT', (doppel) => doppel.faults.add({ path: '/', status: 'often' })],
    ['a bad registry fixture', 'DOPPEL_INVALID_REGISTRY_FIXTURE', (doppel) => seedRegistry(doppel, { modules: [{ organization: 'acme' }] } as never)],
    ['a bad tenant name', 'DOPPEL_INVALID_TENANT_NAME', (doppel) => new TenantRegistry(doppel).open('Not A Name')],
    ['a bad label expression', 'DOPPEL_INVALID_LABEL_EXPRESSION', () => parseLabelExpression('ec2 and (')],
    ['a bad duration', 'DOPPEL_INVALID_DURATION', (doppel) => doppel.clock.advance('soon')],
  ]
  for (const [what, code, run] of cases) {
    it(`${what}: ${code}`, async () => {
      const error = await thrown(() => run(createDoppel({ seed: 1 })))
      expect(error).toBeInstanceOf(DoppelError)
      expect((error as DoppelError).code).toBe(code)
      expect(isDoppelError(error, code as DoppelErrorCode)).toBe(true)
      expect(Object.hasOwn(ERROR_CODES, code)).toBe(true)
    })
  }

  it("the fake cloud's direct face: an unknown role is a DoppelError whose code is the provider's own", async () => {
    const doppel = createDoppel({ seed: 1 })
    const error = await thrown(() => doppel.cloud.getRole(doppel.cloud.defaultServiceCredentials(), 'no-such-role'))
    expect(error).toBeInstanceOf(DoppelError)
    expect(error).toMatchObject({ name: 'CloudError', code: 'NoSuchEntity', status: 404 })
    expect(isDoppelError(error)).toBe(true)
    expect(isDoppelError(new Error('plain'))).toBe(false)
  })

  it('a drop fault fails fetch with a DoppelError as the cause', async () => {
    const doppel = createDoppel({ seed: 1 })
    doppel.faults.add({ path: '/v1/auth/cloud/role', drop: true })
    const error = await thrown(() => doppel.fetch('http://doppel.test/v1/auth/cloud/role?list=true'))
    expect(error).toBeInstanceOf(TypeError)
    expect(((error as TypeError).cause as DoppelError).code).toBe('DOPPEL_CONNECTION_DROPPED')
  })

  it('messages stay as they were: the code is added, the text is not changed', async () => {
    const error = await thrown(() => parseLabelExpression('ec2 and ('))
    expect(error).toMatchObject({ name: 'LabelExpressionError', code: 'DOPPEL_INVALID_LABEL_EXPRESSION' })
    expect((error as Error).message).not.toContain('DOPPEL_')
  })
})

describe('one token reader', () => {
  const root = 'root'
  const tail = '\u00a0'

  it('the token endpoints read the token header as the management check does: as sent, not trimmed', async () => {
    const doppel = createDoppel({ seed: 1, rootTokens: [root] })
    const headers = { 'X-Service-Token': `${root}${tail}` }
    const roles = await doppel.fetch('http://doppel.test/v1/auth/cloud/role?list=true', { headers })
    const lookup = await doppel.fetch('http://doppel.test/v1/auth/token/lookup-self', { headers })
    expect(roles.status).toBe(403)
    expect(lookup.status).toBe(403)
    const plain = await doppel.fetch('http://doppel.test/v1/auth/token/lookup-self', { headers: { 'X-Service-Token': root } })
    expect(plain.status).toBe(200)
  })

  it("both trim a Bearer token as Go's strings.TrimSpace trims its bytes (each case seen on the real server)", async () => {
    const doppel = createDoppel({ seed: 1, rootTokens: [root] })
    const lookup = (value: string) => doppel.fetch('http://doppel.test/v1/auth/token/lookup-self', { headers: { Authorization: value } }).then((r) => r.status)
    // A header value is bytes: U+00A0 sent as the one byte 0xA0 is no UTF-8 and stays; its UTF-8 form is trimmed.
    expect(await lookup(`Bearer ${root}${tail}`)).toBe(403)
    expect(await lookup(`Bearer ${root}\u00c2\u00a0`)).toBe(200)
    expect(await lookup(`Bearer \u00e3\u0080\u0080${root}`)).toBe(200)
  })
})
