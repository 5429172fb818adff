// doppel's MSW handlers beside the user's: a request no doppel service owns is left to the next handler or
// to MSW's unhandled-request policy, as MSW's own handlers do; `catchAll` keeps the server's 404.
import { http, HttpResponse } from 'msw'
import { setupServer } from 'msw/node'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createDoppel } from '../../src/features/doppel/index.ts'
import { createHandlers } from '../../src/faces/msw/index.ts'

const VAULT = 'http://vault.test'
const ROOT = { 'X-Service-Token': 'root' }
const S3 = 'https://my-bucket.s3.us-east-1.amazonaws.com/report.csv'

describe('a user handler after doppel\'s', () => {
  const doppel = createDoppel({ seed: 1 })
  const server = setupServer(
    ...createHandlers(doppel, { baseUrl: VAULT }),
    http.get('https://my-bucket.s3.us-east-1.amazonaws.com/*', () => HttpResponse.text('from the user\'s S3 handler')),
    http.get(`${VAULT}/healthz`, () => HttpResponse.text('from the user\'s health handler')),
  )
  beforeAll(() => server.listen({ onUnhandledFrame: 'error' }))
  afterEach(() => doppel.reset())
  afterAll(() => server.close())

  it('answers an AWS host the fake cloud does not emulate', async () => {
    const res = await fetch(S3)
    expect(await res.text()).toBe('from the user\'s S3 handler')
    expect(doppel.journal.entries()).toEqual([])
  })

  it('answers a path on the base URL that no doppel service owns', async () => {
    expect(await (await fetch(`${VAULT}/healthz`)).text()).toBe('from the user\'s health handler')
    expect(doppel.journal.entries()).toEqual([])
  })

  it('leaves doppel\'s own paths and hosts to doppel', async () => {
    expect((await fetch(`${VAULT}/v1/auth/cloud/roles?list=true`, { headers: ROOT })).status).toBe(404)
    expect((await fetch(`${VAULT}/_doppel/health`)).status).toBe(200)
    doppel.cloud.createInstance({ ami_id: 'ami-0abc1234' })
    expect((await fetch('http://169.254.169.254/latest/api/token', { method: 'PUT', headers: { 'X-aws-ec2-metadata-token-ttl-seconds': '60' } })).status).toBe(200)
    expect((await fetch('https://sts.amazonaws.com/?Action=GetCallerIdentity&Version=2011-06-15')).status).toBe(403)
    expect(doppel.journal.entries().map((entry) => entry.service)).toEqual(['cloud-auth', 'control', 'fake-cloud', 'fake-cloud'])
  })
})

describe('a user handler before doppel\'s, by server.use()', () => {
  const doppel = createDoppel({ seed: 1 })
  const server = setupServer(...createHandlers(doppel, { baseUrl: VAULT }))
  beforeAll(() => server.listen({ onUnhandledFrame: 'error' }))
  afterEach(() => {
    server.resetHandlers()
    return doppel.reset()
  })
  afterAll(() => server.close())

  it('overrides one endpoint until resetHandlers(); doppel answers the others', async () => {
    server.use(http.get(`${VAULT}/v1/auth/cloud/role/web`, () => HttpResponse.json({ errors: ['overridden'] }, { status: 503 })))
    const overridden = await fetch(`${VAULT}/v1/auth/cloud/role/web`, { headers: ROOT })
    expect(overridden.status).toBe(503)
    expect((await fetch(`${VAULT}/v1/auth/cloud/role/web`, { method: 'POST', headers: ROOT, body: JSON.stringify({ auth_type: 'ec2', bound_ami_id: 'ami-0abc1234' }) })).status).toBe(204)
    server.resetHandlers()
    expect((await fetch(`${VAULT}/v1/auth/cloud/role/web`, { headers: ROOT })).status).toBe(200)
  })
})

describe('onUnhandledFrame: \'error\'', () => {
  const doppel = createDoppel({ seed: 1 })
  const server = setupServer(...createHandlers(doppel, { baseUrl: VAULT }))
  beforeAll(() => server.listen({ onUnhandledFrame: 'error' }))
  afterAll(() => server.close())

  it('fires for a path on the base URL no doppel service owns and for an AWS host the fake cloud does not emulate', async () => {
    await expect(fetch(`${VAULT}/healthz`)).rejects.toThrow()
    await expect(fetch(S3)).rejects.toThrow()
    expect(doppel.journal.entries()).toEqual([])
  })
})

describe('catchAll: true', () => {
  const doppel = createDoppel({ seed: 1 })
  const server = setupServer(...createHandlers(doppel, { baseUrl: VAULT, catchAll: true }), http.get('https://my-bucket.s3.us-east-1.amazonaws.com/*', () => HttpResponse.text('never')))
  beforeAll(() => server.listen({ onUnhandledFrame: 'error' }))
  afterAll(() => server.close())

  it('answers every request on the base URL and AWS\'s names, as doppel serve does', async () => {
    const unknown = await fetch(`${VAULT}/healthz`)
    expect([unknown.status, await unknown.text()]).toEqual([404, '404 page not found\n'])
    const s3 = await fetch(S3)
    expect([s3.status, await s3.text()]).toEqual([404, 'doppel\'s fake cloud does not emulate my-bucket.s3.us-east-1.amazonaws.com: it serves STS, EC2, IAM and the instance metadata service\n'])
  })
})
