// sys/init with the vault profile, against Vault's own decoding of its InitRequest (vault-oracle.ts): the
// body through the listener's JSON limits, then Go's decoder into the struct, the Shamir seal's check, and
// an initialised server's refusal, sent through doppel's public surface.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createDoppel } from '../../src/features/doppel/index.ts'
import { VAULT_LISTENER_JSON_LIMITS } from '../../src/services/cloud-auth/index.ts'
import { goAvailable, vaultOracle } from './vault-oracle.ts'

interface Answer {
  status: number
  error?: string
}

describe.skipIf(!goAvailable())("sys/init, against Vault's own decoding", () => {
  const oracle = vaultOracle()

  const doppel = createDoppel({ profile: 'vault' })
  async function doppelAnswer(body: string): Promise<Answer> {
    const answer = await doppel.fetch('http://vault.test/v1/sys/init', { method: 'PUT', body })
    return { status: answer.status, error: ((await answer.json()) as { errors: string[] }).errors[0] }
  }
  async function expected(body: string): Promise<Answer> {
    const encoded = Buffer.from(body).toString('base64')
    const { maxDepth, maxStringValueLength, maxObjectEntryCount, maxArrayElementCount, maxTokens } = VAULT_LISTENER_JSON_LIMITS
    const limits = { MaxDepth: maxDepth, MaxStringValueLength: maxStringValueLength, MaxObjectEntryCount: maxObjectEntryCount, MaxArrayElementCount: maxArrayElementCount, MaxTokens: maxTokens }
    // The listener's check comes first; only what it refuses (500, 413) answers before the handler.
    const listener = await oracle().ask<Answer>({ body: encoded, maxRequestSize: 32 * 1024 * 1024, limits })
    if (listener.status === 500 || listener.status === 413) return { status: listener.status, error: listener.error }
    return oracle().ask<Answer>({ init: encoded })
  }

  it.each([
    '',
    '{}',
    'null',
    '[1]',
    '"x"',
    '{"secret_shares":5,"secret_threshold":3}',
    '{"secret_shares":1,"secret_threshold":1}',
    '{"secret_shares":3,"secret_threshold":1}',
    '{"secret_shares":256,"secret_threshold":3}',
    '{"secret_shares":3,"secret_threshold":256}',
    '{"secret_shares":3,"secret_threshold":4}',
    '{"secret_shares":2,"secret_threshold":2,"pgp_keys":["a"]}',
    '{"secret_threshold":0}',
    '{"secret_shares":"5"}',
    '{"secret_shares":1.5}',
    '{"secret_shares":1e3}',
    '{"secret_shares":99999999999999999999}',
    '{"secret_shares":-1}',
    '{"SECRET_SHARES":true}',
    '{"\u017fecret_shares":{}}',
    '{"pgp_keys":"k"}',
    '{"pgp_keys":[1]}',
    '{"pgp_\u212aeys":[true]}',
    '{"pgp_keys":[null]}',
    '{"root_token_pgp_key":1}',
    '{"recovery_shares":1}',
    '{"recovery_shares":0,"recovery_threshold":2}',
    '{"recovery_pgp_keys":[]}',
    '{"recovery_pgp_keys":[null]}',
    '{"recovery_shares":2,"RECOVERY_SHARES":0}',
    '{"secret_shares":"x","recovery_shares":2}',
    '{"secret_shares":[],"pgp_keys":{}}',
    '{"unknown":[1,2,{}]}',
    '{"a":1,}',
    '{"secret_shares":1} x',
  ])('%j answers as Vault 1.21 does', async (body) => {
    expect(await doppelAnswer(body)).toEqual(await expected(body))
  })

  it('agrees on generated bodies', async () => {
    const key = fc.constantFrom(
      ...['secret_shares', 'Secret_Shares', 'secret_threshold', 'stored_shares', 'pgp_keys', 'PGP_KEYS', 'recovery_shares', 'Recovery_Shares'],
      ...['recovery_threshold', 'recovery_pgp_keys', 'root_token_pgp_key', 'unknown', '\u017ftored_\u017fhares', 'root_to\u212aen_pgp_\u212aey'],
    )
    // PGP keys are compared by their count: neither side reads their contents (Vault would refuse these at decoding).
    const value = fc.constantFrom(...['0', '1', '2', '3', '-1', '-0', '255', '256', '1.5', '1e3', '99999999999999999999', '"1"', 'true', 'null', '[]', '["a"]', '["a","b"]', '[1]', '[null]', '{}', '"x"'])
    const body = fc.array(fc.tuple(key, value), { maxLength: 6 }).map((entries) => `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}`)
    await fc.assert(
      fc.asyncProperty(body, async (text) => {
        expect(await doppelAnswer(text)).toEqual(await expected(text))
      }),
      { numRuns: 1500 },
    )
  })

  it('answers a read and another method as the handler does', async () => {
    const read = await doppel.fetch('http://vault.test/v1/sys/init')
    expect([read.status, await read.json()]).toEqual([200, { initialized: true }])
    const other = await doppel.fetch('http://vault.test/v1/sys/init', { method: 'DELETE' })
    expect([other.status, await other.json()]).toEqual([405, { errors: [] }])
  })
})
