// Request bodies as Vault 1.21 reads them, with the vault profile: its listener's JSON limits check, then a
// write's JSON decode. The oracle (vault-oracle.ts) runs the SDK's own check and Go's own decoder from the
// modules this directory's go.mod pins, so every answer here comes from Vault's code, not from what doppel
// believes it to be. (The real server CI starts is OpenBao's, whose HTTP layer reads bodies otherwise:
// docs/vault-profile.md.)
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createDoppel } from '../../src/features/doppel/index.ts'
import { AuthRefusal, checkJsonLimits, listenedData, VAULT_LISTENER_JSON_LIMITS, type JsonLimits } from '../../src/services/cloud-auth/index.ts'
import { goAvailable, vaultOracle, type VaultOracle } from './vault-oracle.ts'

const MAX_REQUEST_SIZE = 32 * 1024 * 1024

interface Answer {
  status: number
  error?: string
  data?: Record<string, unknown>
}

/** Vault's reading of a body, by the oracle. */
async function vaultAnswer(oracle: VaultOracle, body: Uint8Array, maxRequestSize: number, limits: JsonLimits): Promise<Answer> {
  const goLimits = {
    MaxDepth: limits.maxDepth,
    MaxStringValueLength: limits.maxStringValueLength,
    MaxObjectEntryCount: limits.maxObjectEntryCount,
    MaxArrayElementCount: limits.maxArrayElementCount,
    MaxTokens: limits.maxTokens,
  }
  const answer = await oracle.ask<Answer>({ body: Buffer.from(body).toString('base64'), maxRequestSize, limits: goLimits })
  // Go leaves an empty map out (omitempty); doppel's is {}.
  return answer.status === 200 ? { ...answer, data: answer.data ?? {} } : answer
}

/** doppel's reading of the same body: the listener's check, then the write's data, as the vault profile runs them. */
function doppelAnswer(body: Uint8Array, maxRequestSize: number, limits: JsonLimits): Answer {
  const over = body.length > maxRequestSize
  const bytes = body.subarray(0, maxRequestSize)
  const refused = checkJsonLimits(bytes, limits, over)
  if (refused) return { status: refused.tooLarge ? 413 : 500, error: refused.message }
  try {
    return { status: 200, data: listenedData({ bytes, over }, 'application/json', false) }
  } catch (error) {
    if (error instanceof AuthRefusal) return { status: error.status, error: error.message }
    throw error
  }
}

/** Vault's limits alone, without doppel's own bound on a body's entries. */
const VAULT_LIMITS: JsonLimits = { ...VAULT_LISTENER_JSON_LIMITS, maxTotalEntries: undefined }
const latin1 = (text: string) => Buffer.from(text, 'latin1')

describe.skipIf(!goAvailable())("request bodies, against Vault's own code", () => {
  const oracle = vaultOracle()

  // Each found by hand or by the property below (its seeds beside it).
  const bodies = [
    ...['', ' ', 'null', '{}', '{}  ', '{} x', '{}{}', '{"a":1}x', '[1]', '[]', '"s"', '1', '12 x', 'true', 'nul', '{', '{"a"', '{"a":[1,2'],
    ...['{"a":1,"a":2}', '{"a":{"b":1},"c":{"b":2}}', '{"a":1,}', '[1,]', '{"a":}', '{"a" 1}', '{"a"::1}', '{:}', '[,1]', '}', ']', '{]', '[}', 'x'],
    ...['{"a":"\\q"}', '{"a":"\\ud800"}', '{"a":"\\ud800x"}', '{"a":"\\ud800\\udc00"}', '{"a":"\\udc00"}', '{"a":"b\\u00zz"}', '{"a":"\\u12"}', '{"a":"\n"}', '{"a":"\\'],
    ...['{"a":01}', '{"a":-01}', '{"a":1.}', '{"a":.5}', '{"a":-}', '{"a":1e5}', '{"a":1e}', '{"a":1e999}', '{"a":-1e-999}', '{"a":+1}', '{"a":1_0}', '{"a":0x1}'],
    ...['{"a":tru}', '{"a":truex}', '{"a":nan}', '{"a":nul', '\xef\xbb\xbf{}', '\x1f{}', '{\x1f"a":1}', '{"a":\x8b1}', '{"\xe9":1}', '{"\xe2\x82A":1}', '{"a":"\xc3\xa9"}'],
    ...['{"\\u00e9":1,"\xc3\xa9":2}', '{"\xff":1,"\xff":2}', '{"a":"<&>"}x', '{"a":"x"}}', '{"a":"x"]', '{"a":[{"b":[]}]}', '{"a":true,"b":false,"c":null}'],
  ].map(latin1)
  it.each(bodies.map((body) => [JSON.stringify(body.toString('latin1')), body] as const))('%s answers as Vault 1.21', async (_, body) => {
    expect(doppelAnswer(body, MAX_REQUEST_SIZE, VAULT_LIMITS)).toEqual(await vaultAnswer(oracle(), body, MAX_REQUEST_SIZE, VAULT_LIMITS))
  })

  it("answers Vault's errors through the vault profile, before the token check, and reads what passes as the write's data", async () => {
    const doppel = createDoppel({ profile: 'vault' })
    for (const body of bodies) {
      const expected = await vaultAnswer(oracle(), body, MAX_REQUEST_SIZE, VAULT_LIMITS)
      for (const token of ['root', 'not-a-token']) {
        const answer = await doppel.fetch('http://vault.test/v1/auth/aws/role/probe', { method: 'POST', headers: { 'X-Vault-Token': token }, body })
        const text = await answer.text()
        if (expected.error !== undefined) expect([answer.status, JSON.parse(text)], body.toString('latin1')).toEqual([expected.status, { errors: [expected.error] }])
        else if (token === 'root') expect(text, body.toString('latin1')).not.toContain('JSON')
        else expect(answer.status).toBe(403)
      }
    }
  })

  it('answers at the limits as Vault does: depth, a string, entries, the body size', async () => {
    const cases: [string, Uint8Array, number][] = [
      ['300 levels', latin1(`${'['.repeat(300)}${']'.repeat(300)}`), MAX_REQUEST_SIZE],
      ['301 levels', latin1(`${'['.repeat(301)}${']'.repeat(301)}`), MAX_REQUEST_SIZE],
      ['a 1 MiB string', latin1(`{"a":"${'x'.repeat(1024 * 1024)}"}`), MAX_REQUEST_SIZE],
      ['a string one byte longer', latin1(`{"a":"${'x'.repeat(1024 * 1024 + 1)}"}`), MAX_REQUEST_SIZE],
      ['10,000 entries', latin1(`[${Array(10_000).fill('1').join(',')}]`), MAX_REQUEST_SIZE],
      ['10,001 entries', latin1(`[${Array(10_001).fill('1').join(',')}]`), MAX_REQUEST_SIZE],
      ['an object past the size limit', latin1(`{"a":${' '.repeat(64)}1}`), 32],
      ['a string past the size limit', latin1(`{"a":"${'x'.repeat(64)}"}`), 32],
      ['a scalar past the size limit', latin1(`"${'x'.repeat(64)}"`), 32],
      ['white space past the size limit', latin1(' '.repeat(64)), 32],
    ]
    for (const [what, body, max] of cases) expect(doppelAnswer(body, max, VAULT_LIMITS), what).toEqual(await vaultAnswer(oracle(), body, max, VAULT_LIMITS))
  })

  it('agrees on generated bodies, limits and size limits', async () => {
    const piece = fc.constantFrom(
      ...['{', '}', '[', ']', ',', ':', '"a"', '"b"', '"a\\u0062"', '"\\ud800"', '"\\ud800\\udc00"', '"\\q"', '"\\u12"', '"\\u00e9"', '"x\\"', '"\xc3\xa9"', '"\xe9"'],
      ...['"\x01"', '1', '0', '01', '-', '-0', '1.', '.5', '1e5', '1e', '1e999', '-1.5e-3', '+1', 'true', 'tru', 'truex', 'null', 'nul', 'false', ' ', '\t', '\n'],
      ...['\x1f', '\x8b', '\xef\xbb\xbf', 'x', '"', '\\', '\xff', '\xe2\x82', '<'],
    )
    const spliced = fc
      .tuple(fc.json(), fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 }), fc.boolean()), { maxLength: 3 }))
      .map(([text, edits]) => {
        const bytes = [...Buffer.from(text)]
        for (const [at, byte, insert] of edits) bytes.splice(at % (bytes.length + 1), insert ? 0 : 1, byte)
        return Uint8Array.from(bytes)
      })
    const body = fc.oneof(
      fc.array(piece, { maxLength: 30 }).map((pieces) => latin1(pieces.join(''))),
      spliced,
      fc.json().map((text) => new TextEncoder().encode(text)),
    )
    const small = fc.record({
      maxDepth: fc.integer({ min: 0, max: 4 }),
      maxStringValueLength: fc.integer({ min: 0, max: 10 }),
      maxObjectEntryCount: fc.integer({ min: 0, max: 5 }),
      maxArrayElementCount: fc.integer({ min: 0, max: 5 }),
      maxTokens: fc.integer({ min: 0, max: 40 }),
    })
    const limits = fc.oneof(fc.constant(VAULT_LIMITS), small)
    const max = fc.oneof(fc.constant(MAX_REQUEST_SIZE), fc.integer({ min: 1, max: 80 }))
    await fc.assert(
      fc.asyncProperty(body, max, limits, async (bytes, maxRequestSize, chosen) => {
        expect(doppelAnswer(bytes, maxRequestSize, chosen)).toEqual(await vaultAnswer(oracle(), bytes, maxRequestSize, chosen))
      }),
      { numRuns: 3000 },
    )
  })
})
