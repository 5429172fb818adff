// config/client's rotation_schedule with the vault profile, against the SDK's own scheduler (vault-oracle.ts):
// a schedule the parser refuses is 400 with its words, one it takes is refused as Vault's community edition
// refuses to register the rotation (doppel rotates nothing), sent through doppel's public surface.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createDoppel } from '../../src/features/doppel/index.ts'
import { goAvailable, vaultOracle } from './vault-oracle.ts'

const REGISTERING = 'error registering rotation job: rotation manager capabilities not supported in Vault community edition'
const PANICS = 'failed to parse provided rotation_schedule: a time zone prefix needs a space after it'

describe.skipIf(!goAvailable())("rotation_schedule, against Vault's own scheduler", () => {
  const oracle = vaultOracle()

  const doppel = createDoppel({ profile: 'vault' })
  async function doppelAnswer(spec: string): Promise<string | undefined> {
    const answer = await doppel.fetch('http://vault.test/v1/auth/aws/config/client', {
      method: 'POST',
      headers: { 'X-Vault-Token': 'root', 'Content-Type': 'application/json' },
      body: JSON.stringify({ rotation_schedule: spec }),
    })
    if (answer.status === 204) return undefined
    expect(answer.status, spec).toBe(400)
    return ((await answer.json()) as { errors: string[] }).errors[0]
  }
  async function expected(spec: string): Promise<string> {
    const { error } = await oracle().ask<{ error: string }>({ schedule: spec })
    if (error === '') return REGISTERING
    return error === 'panics' ? PANICS : `failed to parse provided rotation_schedule: ${error}`
  }

  it.each([
    'x',
    '0 0 * * *',
    '0 0 * * * *',
    '*/15 9-17 * JAN-mar mon-FRI',
    '0 0 32 * *',
    '0 0 0 * *',
    '60 * * * *',
    '5-1 * * * *',
    '*/0 * * * *',
    '1-2-3 * * * *',
    '1/2/3 * * * *',
    '1-x * * * *',
    '+5 * * * *',
    '99999999999999999999 * * * *',
    '-1 * * * *',
    ',,, * * * *',
    '? ? ? ? ?',
    '*-5 * * * *',
    '@daily',
    '@every 1h',
    'TZ=Europe/Berlin 0 0 * * *',
    'CRON_TZ=Nope/Zone 0 0 * * *',
    'TZ=../x 0 0 * * *',
    'TZ= 0 0 * * *',
    'TZ=UTC',
    '0\t0\u00a0*\u3000* *',
    'TZ=UTC   @daily',
  ])('%j answers as Vault 1.21 does', async (spec) => {
    expect(await doppelAnswer(spec)).toBe(await expected(spec))
  })

  it('agrees on generated schedules', async () => {
    const atom = fc.oneof(
      fc.constantFrom('*', '?', 'jan', 'DEC', 'Mon', 'sun', 'xyz', '+5', '-1', '', '07', '99999999999999999999'),
      fc.integer({ min: 0, max: 70 }).map(String),
    )
    const expr = fc
      .tuple(atom, fc.option(fc.tuple(fc.constantFrom('-', '--'), atom)), fc.option(fc.tuple(fc.constantFrom('/', '//'), atom)))
      .map(([low, high, step]) => `${low}${high ? high.join('') : ''}${step ? step.join('') : ''}`)
    const field = fc.array(expr, { minLength: 1, maxLength: 3 }).map((parts) => parts.join(','))
    const prefix = fc.constantFrom('', '', '', 'TZ=UTC ', 'CRON_TZ=Europe/Berlin ', 'TZ=Nope/Zone ', '@')
    const spec = fc
      .tuple(prefix, fc.array(field, { minLength: 0, maxLength: 7 }), fc.constantFrom(' ', '  ', '\t'))
      .map(([start, fields, gap]) => `${start}${fields.join(gap)}`)
      .filter((text) => text !== '')
    await fc.assert(
      fc.asyncProperty(spec, async (text) => {
        expect(await doppelAnswer(text)).toBe(await expected(text))
      }),
      { numRuns: 1500 },
    )
  })
})
