import { describe, expect, it } from 'vitest'
import { createDoppel, type Doppel } from '../../src/index.ts'

// Where newcomers trip, the journal says why beside the answer; the client's answer stays the real
// service's (IMDS's small HTML page).

const IMDS = 'http://169.254.169.254'

function lastExplanation(doppel: Doppel) {
  const entry = doppel.journal.entries().at(-1)!
  return { status: entry.status, ...entry.explanation }
}

describe('the instance metadata service', () => {
  it('with no instance in use: says to create one and how IMDS picks it', async () => {
    const doppel = createDoppel({ seed: 1 })
    const response = await doppel.fetch(`${IMDS}/latest/meta-data/instance-id`)
    expect(response.status).toBe(404)
    expect(await response.text()).toContain('<title>404 - Not Found</title>')
    expect(lastExplanation(doppel)).toMatchObject({ status: 404, rule: 'imds instance', seen: 'no instance in use: the fake cloud has none', hint: expect.stringContaining('doppel.cloud.createInstance') })
  })

  it('IMDSv1 under http_tokens: required: names the setting and the IMDSv2 exchange', async () => {
    const doppel = createDoppel({ seed: 1 })
    const { instance_id } = doppel.cloud.createInstance({ http_tokens: 'required' })
    const response = await doppel.fetch(`${IMDS}/latest/meta-data/instance-id`)
    expect(response.status).toBe(401)
    expect(lastExplanation(doppel)).toMatchObject({ status: 401, rule: 'http_tokens', seen: expect.stringContaining(instance_id), expected: expect.stringContaining('PUT /latest/api/token') })
    const token = await (await doppel.fetch(`${IMDS}/latest/api/token`, { method: 'PUT', headers: { 'X-aws-ec2-metadata-token-ttl-seconds': '60' } })).text()
    const v2 = await doppel.fetch(`${IMDS}/latest/meta-data/instance-id`, { headers: { 'X-aws-ec2-metadata-token': token } })
    expect(await v2.text()).toBe(instance_id)
  })

  it('an unknown metadata path: the entries beside it and the likeliest typo', async () => {
    const doppel = createDoppel({ seed: 1 })
    doppel.cloud.createInstance({})
    expect((await doppel.fetch(`${IMDS}/latest/meta-data/instance-di`)).status).toBe(404)
    expect(lastExplanation(doppel)).toMatchObject({ rule: 'imds path', seen: '/latest/meta-data/instance-di', expected: expect.stringContaining('instance-id'), hint: 'did you mean instance-id?' })
  })
})
