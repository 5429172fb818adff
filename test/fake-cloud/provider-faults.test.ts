import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDoppel, type Doppel } from '../../src/features/doppel/index.ts'
import { createDoppelServer, listen, type RunningServer } from '../../src/faces/server/index.ts'
import type { JournalEntry } from '../../src/core/journal.ts'
import { aws4LoginData, createEc2Role, loginWorld } from '../cloud-auth/login-setup.ts'

/** A login's provider calls answered in process meet faults and are journaled, as over HTTP (issue 35 item 5). */

function ec2World() {
  const world = loginWorld()
  const instance = world.cloud.createInstance({ iam_role_name: 'web-app' })
  const pkcs7 = () => world.cloud.identityDocument(instance.instance_id, 'rsa2048')
  return { world, instance, pkcs7 }
}

const internal = (doppel: Doppel): JournalEntry[] => doppel.journal.entries().filter((entry) => entry.internal)

describe('a fault on a provider call during a login, in process', () => {
  it('fails EC2 by its host name: every attempt (1 + max_retries) meets it and the journal shows each', async () => {
    const { world, instance, pkcs7 } = ec2World()
    await createEc2Role(world, 'web', instance)
    world.doppel.faults.add({ path: 'https://ec2.us-east-1.amazonaws.com/*', status: 503 })
    const reply = await world.login({ role: 'web', pkcs7: pkcs7() })
    expect(reply.status).toBe(400)
    expect(reply.body.errors[0]).toContain(`error fetching description for instance ID "${instance.instance_id}"`)
    expect(reply.body.errors[0]).toContain('InternalFailure: Injected fault\n\tstatus code: 503')
    const calls = internal(world.doppel)
    // GetCallerIdentity (the default account, learned once), then DescribeInstances four times.
    expect(calls.map((entry) => [entry.service, entry.method, entry.url, entry.status])).toEqual([
      ['fake-cloud', 'POST', 'https://sts.amazonaws.com/', 200],
      ...Array(4).fill(['fake-cloud', 'POST', 'https://ec2.us-east-1.amazonaws.com/', 503]),
    ])
    expect(calls[1]!.request.body).toBe(`Action=DescribeInstances&Version=2016-11-15&InstanceId.1=${instance.instance_id}`)
    expect(JSON.parse(calls[1]!.response!.body)).toEqual({ code: 'InternalFailure', message: 'Injected fault' })
    // The login's own entry comes after the calls it made.
    expect(world.doppel.journal.entries().at(-1)).toMatchObject({ service: 'cloud-auth', status: 400 })
    expect(world.doppel.journal.entries().at(-1)!.internal).toBeUndefined()
  })

  it('fails STS by the fake cloud face path during an iam login, as on a server', async () => {
    const world = loginWorld()
    const user = world.cloud.createPrincipal({ type: 'user', name: 'deploy' })
    await world.api('POST', 'role/deploy', { auth_type: 'iam', bound_iam_principal_arn: user.arn, resolve_aws_unique_ids: false })
    world.doppel.faults.add({ path: '/_doppel/cloud/sts/*', status: 403 })
    const reply = await world.login({ role: 'deploy', ...aws4LoginData(world, user) })
    expect(reply.status).toBe(400)
    expect(reply.body.errors[0]).toContain('received error code 403 from STS')
    const [call] = internal(world.doppel)
    expect(call).toMatchObject({ service: 'fake-cloud', url: 'https://sts.amazonaws.com//', status: 403, request: { body: 'Action=GetCallerIdentity&Version=2011-06-15' } })
    expect(call!.response!.body).toContain('<Code>InjectedFault</Code>')
    // The replay's signed headers stay out of the journal.
    expect(call!.request.headers).toEqual({ 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' })
  })

  it('retries a throttled STS call as the SDK does: a fault used once is not seen by the login', async () => {
    const world = loginWorld()
    const user = world.cloud.createPrincipal({ type: 'user', name: 'deploy' })
    await world.api('POST', 'role/deploy', { auth_type: 'iam', bound_iam_principal_arn: user.arn, resolve_aws_unique_ids: false })
    world.doppel.faults.add({ path: 'https://sts.amazonaws.com/*', status: 429, times: 1 })
    const reply = await world.login({ role: 'deploy', ...aws4LoginData(world, user) })
    expect(reply.status).toBe(200)
    expect(internal(world.doppel).map((entry) => entry.status)).toEqual([429, 200])
  })

  it('slows IAM and drops EC2', async () => {
    const { world, instance, pkcs7 } = ec2World()
    await createEc2Role(world, 'web', instance, { bound_iam_role_arn: `arn:aws:iam::${instance.account_id}:role/web-app` })
    world.doppel.faults.add({ path: 'https://iam.amazonaws.com/*', latency_ms: 60 })
    const started = performance.now()
    expect((await world.login({ role: 'web', pkcs7: pkcs7() })).status).toBe(200)
    expect(performance.now() - started).toBeGreaterThanOrEqual(55)
    const iam = internal(world.doppel).find((entry) => entry.url === 'https://iam.amazonaws.com/')!
    expect(iam.request.body).toBe('Action=GetInstanceProfile&Version=2010-05-08&InstanceProfileName=web-app')
    expect(iam.durationMs).toBeGreaterThanOrEqual(55)

    world.doppel.faults.clear()
    world.doppel.faults.add({ path: '/_doppel/cloud/ec2/*', drop: true })
    const reply = await world.login({ role: 'web', pkcs7: pkcs7() })
    expect(reply.status).toBe(400)
    expect(reply.body.errors[0]).toContain('RequestError: send request failed\ncaused by: Post "https://ec2.us-east-1.amazonaws.com/": EOF')
    const dropped = internal(world.doppel).filter((entry) => entry.status === 0)
    expect(dropped).toHaveLength(4)
    expect(dropped[0]!.response).toBeUndefined()
  })

  it('keeps the secrets of an AssumeRole answer out of the journal', async () => {
    const { world, instance } = ec2World()
    const other = world.cloud.createInstance({ account_id: '210987654321', iam_role_name: 'web-app' })
    const role = world.cloud.createPrincipal({ type: 'role', name: 'doppel-reader', account_id: '210987654321' })
    await world.api('POST', `config/sts/210987654321`, { sts_role: role.arn })
    await createEc2Role(world, 'web', instance, { bound_ami_id: [instance.ami_id, other.ami_id] })
    const reply = await world.login({ role: 'web', pkcs7: world.cloud.identityDocument(other.instance_id, 'rsa2048') })
    expect(reply.status).toBe(200)
    const assume = internal(world.doppel).find((entry) => entry.request.body.startsWith('Action=AssumeRole'))!
    const answer = JSON.parse(assume.response!.body)
    expect(answer.accessKeyId).toMatch(/^ASIA/)
    expect(answer.secretAccessKey).toBe('<redacted>')
    expect(answer.sessionToken).toBe('<redacted>')
  })
})

describe('over the server', () => {
  let doppel: Doppel
  let server: RunningServer
  beforeAll(async () => {
    doppel = createDoppel({ seed: 3 })
    server = await listen(createDoppelServer(doppel), 0)
  })
  afterAll(() => server.close())

  const send = (path: string, init: RequestInit = {}) =>
    fetch(`${server.url}${path}`, { ...init, headers: { 'X-Service-Token': 'root', 'Content-Type': 'application/json', ...init.headers } })

  it('fails a login by a fault set through the control API on the fake cloud face, and the journal shows the calls', async () => {
    const instance = doppel.cloud.createInstance({})
    expect((await send('/v1/auth/cloud/role/web', { method: 'POST', body: JSON.stringify({ auth_type: 'ec2', bound_ami_id: instance.ami_id }) })).status).toBe(204)
    const fault = await send('/_doppel/faults', { method: 'POST', body: JSON.stringify({ path: '/_doppel/cloud/ec2/*', status: 500, times: 4 }) })
    expect(fault.status).toBe(201)
    const login = await send('/v1/auth/cloud/login', { method: 'POST', body: JSON.stringify({ role: 'web', pkcs7: doppel.cloud.identityDocument(instance.instance_id, 'rsa2048') }) })
    expect(login.status).toBe(400)
    const { entries } = (await (await send('/_doppel/journal')).json()) as { entries: JournalEntry[] }
    expect(entries.filter((entry) => entry.internal).map((entry) => entry.status)).toEqual([200, 500, 500, 500, 500])
    // Used up: the next login goes through.
    expect((await send('/v1/auth/cloud/login', { method: 'POST', body: JSON.stringify({ role: 'web', pkcs7: doppel.cloud.identityDocument(instance.instance_id, 'rsa2048') }) })).status).toBe(200)
  })

  it('applies faults to the AWS faces under /_doppel/cloud/, never to the control routes', async () => {
    await send('/_doppel/faults', { method: 'POST', body: JSON.stringify({ path: '/_doppel/*', status: 503 }) })
    const sts = await fetch(`${server.url}/_doppel/cloud/sts/`, { method: 'POST', body: 'Action=GetCallerIdentity&Version=2011-06-15' })
    expect(sts.status).toBe(503)
    expect(await sts.text()).toContain('<Code>InternalFailure</Code>')
    expect((await send('/_doppel/cloud/instances')).status).toBe(200)
    expect((await send('/_doppel/faults', { method: 'DELETE' })).status).toBe(204)
  })
})
