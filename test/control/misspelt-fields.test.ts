import { describe, expect, it } from 'vitest'
import { createDoppel, type Doppel } from '../../src/features/doppel/index.ts'

// A control body with a field the route does not have is refused (400, naming the field and the nearest
// known one) and changes nothing: a misspelt field dropped unseen would set something else than asked,
// e.g. `"time": 1` a fault that fires forever.
const base = 'http://doppel.test'
const JSON_TYPE = { 'Content-Type': 'application/json' }

async function post(doppel: Doppel, path: string, body: unknown): Promise<{ status: number; errors: string[] }> {
  const res = await doppel.fetch(`${base}${path}`, { method: 'POST', headers: JSON_TYPE, body: JSON.stringify(body) })
  const text = await res.text()
  return { status: res.status, errors: res.status >= 400 ? (JSON.parse(text) as { errors: string[] }).errors : [] }
}

describe('misspelt fields in control bodies', () => {
  it('refuses a fault with a field it does not have, over HTTP and in process, and sets none', async () => {
    const doppel = createDoppel({ seed: 1 })
    const answer = await post(doppel, '/_doppel/faults', { path: '/v1/auth/cloud/*', status: 503, time: 1 })
    expect(answer).toEqual({ status: 400, errors: ['Failed to add a fault: unknown field "time" (did you mean "times"?)'] })
    expect(() => doppel.faults.add({ path: '/v1/*', status: 503, metod: 'GET' } as never)).toThrow('unknown field "metod" (did you mean "method"?)')
    expect(doppel.faults.list()).toEqual([])
    // A fault as `list()` gives it is still read back whole by a restore.
    doppel.faults.add({ path: '/v1/*', status: 503, times: 2 })
    const restored = createDoppel({ seed: 1 })
    await restored.restore(await doppel.snapshot())
    expect(restored.faults.list()).toEqual(doppel.faults.list())
  })

  it('refuses a clock move with an unknown field, both moves, or a time that is not RFC 3339, and the clock stays', async () => {
    const doppel = createDoppel({ clock: { start: '2026-01-01T00:00:00Z', frozen: true } })
    for (const [body, message] of [
      [{ advanse: '1h' }, 'Failed to read the request: unknown field "advanse" (did you mean "advance"?); its fields are "advance", "set"'],
      [{ advance: '1h', set: '2027-01-01T00:00:00Z' }, 'Failed to move the clock: give "advance" or "set", not both'],
      [{ set: '2026-02-30T00:00:00Z' }, 'Failed to set the clock: "set" is not an RFC 3339 time such as 2026-01-01T00:00:00Z: parsing time "2026-02-30T00:00:00Z": day out of range'],
      [{ set: '03/04/2026' }, 'Failed to set the clock: "set" is not an RFC 3339 time such as 2026-01-01T00:00:00Z: parsing time "03/04/2026" as "2006-01-02T15:04:05Z07:00": cannot parse "03/04/2026" as "2006"'],
      [{ set: '2026-03-01' }, 'Failed to set the clock: "set" is not an RFC 3339 time such as 2026-01-01T00:00:00Z: parsing time "2026-03-01" as "2006-01-02T15:04:05Z07:00": cannot parse "" as "T"'],
    ] as const) {
      expect(await post(doppel, '/_doppel/clock', body), JSON.stringify(body)).toEqual({ status: 400, errors: [message] })
    }
    expect(doppel.clock.now().toISOString()).toBe('2026-01-01T00:00:00.000Z')
    // An offset and a fraction are RFC 3339; the time is kept to the millisecond.
    expect(await post(doppel, '/_doppel/clock', { set: '2026-03-01T02:00:00.123456789+02:00' })).toEqual({ status: 200, errors: [] })
    expect(doppel.clock.now().toISOString()).toBe('2026-03-01T00:00:00.123Z')
    expect(() => createDoppel({ clock: { start: '2026-02-29T00:00:00Z' } })).toThrow('"start" is not an RFC 3339 time')
  })

  it('refuses a registry token or fixture with a misspelt key at any depth, and stores nothing of it', async () => {
    const doppel = createDoppel({ seed: 1 })
    const cases: [string, unknown, string][] = [
      ['/_doppel/registry/tokens', { organizations: ['acme'], tokn: 'x' }, 'Failed to seed the registry: tokens[0] has an unknown field "tokn" (did you mean "token"?)'],
      ['/_doppel/registry/fixtures', { organisations: ['acme'] }, 'Failed to seed the registry: the fixture has an unknown field "organisations" (did you mean "organizations"?)'],
      [
        '/_doppel/registry/fixtures',
        { organizations: ['acme'], modules: [{ organization: 'acme', name: 'vpc', provider: 'aws', versions: [{ version: '1.0.0', deprecation: { reason: 'old', url: 'https://x' } }] }] },
        'Failed to seed the registry: modules[0].versions[0].deprecation has an unknown field "url"',
      ],
      [
        '/_doppel/registry/fixtures',
        { modules: [{ organization: 'acme', name: 'vpc', provider: 'aws', versions: [{ version: '1.0.0', inputs: [{ name: 'cidr', typ: 'string' }] }] }] },
        'Failed to seed the registry: modules[0].versions[0].inputs[0] has an unknown field "typ" (did you mean "type"?)',
      ],
    ]
    for (const [path, body, message] of cases) expect(await post(doppel, path, body), message).toEqual({ status: 400, errors: [message] })
    const registryRecords = async () => {
      const state = (await (await doppel.fetch(`${base}/_doppel/state`)).json()) as Record<string, Record<string, unknown>>
      return Object.entries(state).flatMap(([collection, records]) => (collection.startsWith('registry.') ? Object.keys(records) : []))
    }
    expect(await registryRecords()).toEqual([])
    // The same fixture spelt right is stored.
    expect((await post(doppel, '/_doppel/registry/fixtures', { organizations: ['acme'], tokens: [{ organizations: ['acme'] }] })).status).toBe(201)
    expect(await registryRecords()).toHaveLength(2)
  })

  it('refuses a fake-cloud set-up body with a field its route does not have', async () => {
    const doppel = createDoppel({ seed: 1 })
    const { instance_id } = (await (await doppel.fetch(`${base}/_doppel/cloud/instances`, { method: 'POST', headers: JSON_TYPE, body: '{}' })).json()) as { instance_id: string }
    const fields = (list: string) => `; its fields are ${list}`
    expect(await post(doppel, '/_doppel/cloud/identity-document', { instance_id, fromat: 'pkcs7' })).toEqual({
      status: 400,
      errors: [`Failed to read the request: unknown field "fromat" (did you mean "format"?)${fields('"instance_id", "format"')}`],
    })
    expect(await post(doppel, '/_doppel/cloud/use-instance', { instance: instance_id })).toEqual({
      status: 400,
      errors: [`Failed to read the request: unknown field "instance" (did you mean "instance_id"?)${fields('"instance_id"')}`],
    })
    expect(await post(doppel, `/_doppel/cloud/instances/${instance_id}/state`, { state: 'stopped', force: true })).toEqual({
      status: 400,
      errors: [`Failed to read the request: unknown field "force"${fields('"state"')}`],
    })
    expect(await post(doppel, '/_doppel/cloud/consistency', { key_propagation_seconds: 5, key_propagation: 5 })).toEqual({
      status: 400,
      errors: ['Failed to set the consistency settings: unknown field "key_propagation" (did you mean "key_propagation_seconds"?)'],
    })
    expect(await post(doppel, '/_doppel/cloud/instances', { ami: 'ami-1' })).toEqual({
      status: 400,
      errors: ['Failed to create an instance: unknown field "ami" (did you mean "ami_id"?)'],
    })
    const instance = (await (await doppel.fetch(`${base}/_doppel/cloud/instances/${instance_id}`)).json()) as { state: string }
    expect(instance.state).toBe('running')
    expect(((await (await doppel.fetch(`${base}/_doppel/cloud/consistency`)).json()) as { key_propagation_seconds: number }).key_propagation_seconds).toBe(0)
  })
})
