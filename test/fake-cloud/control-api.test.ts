import fc from 'fast-check'
import { beforeEach, describe, expect, it } from 'vitest'
import { createDoppel } from '../../src/features/doppel/index.ts'
import type { Instance, Principal } from '../../src/services/fake-cloud/index.ts'

// The fake cloud's control API under /_doppel/cloud/ (plain HTTP in, JSON out).
const doppel = createDoppel({ seed: 9, clock: { start: '2024-03-05T09:41:27Z', frozen: true } })
beforeEach(() => doppel.reset())

async function call(method: string, path: string, body?: unknown) {
  const response = await doppel.fetch(`http://doppel.test/_doppel/cloud/${path}`, {
    method,
    ...(body !== undefined && { body: typeof body === 'string' ? body : JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
  })
  const text = await response.text()
  return { status: response.status, json: text === '' ? undefined : JSON.parse(text) }
}

describe('instances', () => {
  it('POST instances with an empty body fills every field with realistic ids', async () => {
    const { status, json } = await call('POST', 'instances', {})
    expect(status).toBe(201)
    expect(json).toMatchObject({
      instance_id: expect.stringMatching(/^i-[0-9a-f]{17}$/),
      account_id: '123456789012',
      region: 'us-east-1',
      availability_zone: expect.stringMatching(/^us-east-1[abc]$/),
      ami_id: expect.stringMatching(/^ami-[0-9a-f]{17}$/),
      vpc_id: expect.stringMatching(/^vpc-[0-9a-f]{17}$/),
      subnet_id: expect.stringMatching(/^subnet-[0-9a-f]{17}$/),
      instance_type: 't3.micro',
      private_ip: expect.stringMatching(/^10\.0\.\d+\.\d+$/),
      iam_role_name: null,
      instance_profile_arn: null,
      iam_role_arn: null,
      state: 'running',
      tags: {},
      pending_time: '2024-03-05T09:41:27Z',
    })
  })

  it('POST instances with iam_role_name creates the instance profile and role; GET reads it back', async () => {
    const input = {
      instance_id: 'i-0a1b2c3d4e5f60718',
      account_id: '210987654321',
      availability_zone: 'eu-west-1b',
      ami_id: 'ami-0c2d3e4f',
      iam_role_name: 'web',
      state: 'pending',
      tags: { Name: 'web-1' },
    }
    const { status, json } = await call('POST', 'instances', input)
    expect(status).toBe(201)
    expect(json).toMatchObject({
      ...input,
      region: 'eu-west-1',
      instance_profile_arn: 'arn:aws:iam::210987654321:instance-profile/web',
      iam_role_arn: 'arn:aws:iam::210987654321:role/web',
    })
    expect(await call('GET', 'instances/i-0a1b2c3d4e5f60718')).toEqual({ status: 200, json })
    expect((await call('POST', 'instances', { instance_id: 'i-0a1b2c3d4e5f60718' })).status).toBe(409)
    const second = await call('POST', 'instances', { account_id: '210987654321', iam_role_name: 'web' })
    expect(second.json.instance_profile_arn).toBe(json.instance_profile_arn)
  })

  it('state changes: stop then start moves pending_time to now; terminated is final', async () => {
    const { json: created } = await call('POST', 'instances', {})
    const id = (created as Instance).instance_id
    expect((await call('POST', `instances/${id}/state`, { state: 'stopped' })).json).toMatchObject({ state: 'stopped', pending_time: '2024-03-05T09:41:27Z' })
    doppel.clock.advance('2h')
    expect((await call('POST', `instances/${id}/state`, { state: 'running' })).json).toMatchObject({ state: 'running', pending_time: '2024-03-05T11:41:27Z' })
    doppel.clock.advance('1h')
    expect((await call('POST', `instances/${id}/state`, { state: 'running' })).json.pending_time).toBe('2024-03-05T11:41:27Z')
    expect((await call('POST', `instances/${id}/state`, { state: 'terminated' })).status).toBe(200)
    expect(await call('POST', `instances/${id}/state`, { state: 'running' })).toEqual({
      status: 400,
      json: { errors: [`The instance '${id}' is terminated; its state cannot change.`] },
    })
    expect(await call('POST', `instances/${id}/state`, { state: 'rebooting' })).toEqual({
      status: 400,
      json: { errors: [`Failed to change the state of instance ${id}: "state" must be one of pending, running, stopping, stopped, shutting-down, terminated`] },
    })
    expect((await call('POST', 'instances/i-00000000000000000/state', { state: 'running' })).status).toBe(404)
  })

  it('bad input is a 400 with a message naming the field, and changes nothing', async () => {
    const before = JSON.stringify(doppel.store.snapshot())
    const cases: [unknown, string][] = [
      [{ instance_id: 'i-123' }, 'Failed to create an instance: "instance_id" must be an instance id: "i-" and 8 or 17 lower-case hex digits'],
      [{ account_id: 123456789012 }, 'Failed to create an instance: "account_id" must be a 12-digit account id'],
      [{ region: 'us-east-1', availability_zone: 'eu-west-1a' }, 'Failed to create an instance: "availability_zone" eu-west-1a is not in region us-east-1'],
      [{ tags: { 'aws:x': 'y' } }, expect.stringContaining('"tags" must be')],
      [{ state: 'sleeping' }, expect.stringContaining('"state" must be one of')],
      [{ colour: 'red' }, 'Failed to create an instance: unknown field "colour"'],
      [{ constructor: 'x' }, 'Failed to create an instance: unknown field "constructor"'],
      [[1, 2], 'Failed to read the request: the body must be a JSON object'],
      ['{not json', 'Failed to read the request: the body must be a JSON object'],
    ]
    for (const [body, message] of cases) {
      expect(await call('POST', 'instances', body)).toEqual({ status: 400, json: { errors: [message] } })
    }
    expect(JSON.stringify(doppel.store.snapshot())).toBe(before)
  })

  it('random JSON never gives a 5xx, and a 4xx leaves the store unchanged', async () => {
    const field = fc.constantFrom('instance_id', 'account_id', 'region', 'availability_zone', 'ami_id', 'tags', 'state', 'pending_time', 'iam_role_name', 'private_ip', 'http_tokens', 'x')
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.dictionary(field, fc.jsonValue()), fc.jsonValue()), async (body) => {
        const before = JSON.stringify(doppel.store.snapshot())
        const { status } = await call('POST', 'instances', JSON.stringify(body))
        expect(status).toBeLessThan(500)
        if (status >= 400) expect(JSON.stringify(doppel.store.snapshot())).toBe(before)
      }),
      { numRuns: 200 },
    )
  })
})

describe('principals', () => {
  it('creates users (long-term key) and roles (session credentials); deleting lets one be created again with a new unique id', async () => {
    const user = await call('POST', 'principals', { type: 'user', name: 'alice', path: '/division/' })
    expect(user.status).toBe(201)
    expect(user.json).toMatchObject({
      type: 'user',
      name: 'alice',
      account_id: '123456789012',
      path: '/division/',
      arn: 'arn:aws:iam::123456789012:user/division/alice',
      unique_id: expect.stringMatching(/^AIDA[A-Z2-7]{17}$/),
      access_key_id: expect.stringMatching(/^AKIA[A-Z2-7]{16}$/),
      secret_access_key: expect.stringMatching(/^[A-Za-z0-9/+]{40}$/),
    })
    expect(user.json.session_token).toBeUndefined()
    const role = await call('POST', 'principals', { type: 'role', name: 'deployer', account_id: '210987654321' })
    expect(role.json).toMatchObject({
      arn: 'arn:aws:iam::210987654321:role/deployer',
      unique_id: expect.stringMatching(/^AROA[A-Z2-7]{17}$/),
      access_key_id: expect.stringMatching(/^ASIA[A-Z2-7]{16}$/),
      session_token: expect.stringMatching(/^IQoJb3JpZ2luX2Vj/),
    })
    expect(await call('POST', 'principals', { type: 'user', name: 'ALICE' })).toEqual({ status: 409, json: { errors: ['User with name ALICE already exists.'] } })

    expect((await call('DELETE', `principals/${encodeURIComponent((user.json as Principal).arn)}`)).status).toBe(204)
    expect((await call('DELETE', 'principals/deployer')).status).toBe(204)
    expect((await call('DELETE', 'principals/deployer')).status).toBe(404)
    const again = await call('POST', 'principals', { type: 'user', name: 'alice', path: '/division/' })
    expect(again.json.arn).toBe(user.json.arn)
    expect(again.json.unique_id).not.toBe(user.json.unique_id)
  })

  it('refuses bad principal input with 400', async () => {
    const before = JSON.stringify(doppel.store.snapshot())
    expect(await call('POST', 'principals', { name: 'x' })).toEqual({ status: 400, json: { errors: ['Failed to create a principal: "type" must be one of user, role'] } })
    expect((await call('POST', 'principals', { type: 'group' })).status).toBe(400)
    expect((await call('POST', 'principals', { type: 'user', name: 'bad name' })).status).toBe(400)
    expect((await call('POST', 'principals', { type: 'user', path: 'nopath' })).status).toBe(400)
    expect(JSON.stringify(doppel.store.snapshot())).toBe(before)
  })
})

describe('identity documents and routing', () => {
  it('POST identity-document returns any format; bad requests are 400/404', async () => {
    const { json } = await call('POST', 'instances', {})
    const id = (json as Instance).instance_id
    const document = await call('POST', 'identity-document', { instance_id: id, format: 'document' })
    expect(JSON.parse(document.json.value).instanceId).toBe(id)
    expect((await call('POST', 'identity-document', { instance_id: id, format: 'pkcs7' })).json.value).toMatch(/^MII/)
    expect((await call('POST', 'identity-document', { instance_id: id, format: 'dsa2048' })).json.value).toMatch(/^MII/)
    expect(await call('POST', 'identity-document', { instance_id: id, format: 'ecdsa384' })).toEqual({
      status: 400,
      json: { errors: ['Failed to sign the identity document: "format" must be one of document, signature, pkcs7, rsa2048, dsa2048'] },
    })
    expect((await call('POST', 'identity-document', { format: 'pkcs7' })).status).toBe(400)
    expect((await call('POST', 'identity-document', { instance_id: 'i-00000000000000000' })).status).toBe(404)
  })

  it('POST use-instance chooses the instance the metadata address answers for', async () => {
    const first = (await call('POST', 'instances', {})).json as Instance
    await call('POST', 'instances', {})
    expect(await call('POST', 'use-instance', { instance_id: first.instance_id })).toEqual({ status: 200, json: { instance_id: first.instance_id } })
    expect(await (await doppel.fetch('http://169.254.169.254/latest/meta-data/instance-id')).text()).toBe(first.instance_id)
    expect((await call('POST', 'use-instance', { instance_id: 'i-00000000000000000' })).status).toBe(404)
    expect((await call('POST', 'use-instance', {})).status).toBe(400)
  })

  it('unknown paths are 404 and other methods 405, with the errors body', async () => {
    expect(await call('GET', 'nothing-here')).toEqual({ status: 404, json: { errors: ['unsupported path: GET /_doppel/cloud/nothing-here'] } })
    expect(await call('PUT', 'instances')).toEqual({ status: 405, json: { errors: ['unsupported operation'] } })
  })

  it('the same seed gives the same inventory', async () => {
    const first = (await call('POST', 'instances', { iam_role_name: 'web' })).json
    await doppel.reset()
    expect((await call('POST', 'instances', { iam_role_name: 'web' })).json).toEqual(first)
  })
})
