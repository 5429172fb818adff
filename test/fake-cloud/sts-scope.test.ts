import { GetCallerIdentityCommand, STSClient } from '@aws-sdk/client-sts'
import { SignatureV4 } from '@smithy/signature-v4'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createDoppel } from '../../src/features/doppel/index.ts'
import { getFakeCloud, type Principal } from '../../src/services/fake-cloud/index.ts'
import { NodeSha256, startMsw, startServer, STS_BODY } from './helpers.ts'

// STS checks the credential scope's region like AWS (docs/reference/fake-cloud.md §1.1, docs/reference/fake-cloud.md §4.4): a known region, and the
// endpoint's own (us-east-1 on the global endpoint); any known region on an endpoint override.
const doppel = createDoppel({ seed: 3 })
const cloud = getFakeCloud(doppel)
let msw: ReturnType<typeof startMsw>
beforeAll(() => {
  msw = startMsw(doppel)
})
afterAll(() => msw.close())
beforeEach(() => doppel.reset())

const keys = (p: Principal) => ({ accessKeyId: p.access_key_id, secretAccessKey: p.secret_access_key })

/** A GetCallerIdentity signed by @smithy/signature-v4 for `region`, sent to `url`. */
async function signedCall(principal: Principal, region: string, url: string): Promise<Response> {
  const target = new URL(url)
  const signer = new SignatureV4({ service: 'sts', region, credentials: keys(principal), sha256: NodeSha256 })
  const signed = await signer.sign(
    {
      method: 'POST',
      protocol: target.protocol,
      hostname: target.hostname,
      path: target.pathname,
      headers: { host: target.host, 'content-type': 'application/x-www-form-urlencoded' },
      body: STS_BODY,
    },
    { signingDate: doppel.clock.now() },
  )
  return doppel.fetch(url, { method: 'POST', headers: signed.headers as Record<string, string>, body: STS_BODY })
}

describe('STS credential scope', () => {
  it('SDK v3 STSClient on a regional endpoint (sts.eu-west-1.amazonaws.com) is answered', async () => {
    const alice = cloud.createPrincipal({ type: 'user', name: 'alice' })
    const client = new STSClient({ region: 'eu-west-1', credentials: keys(alice), maxAttempts: 1 })
    const out = await client.send(new GetCallerIdentityCommand({}))
    expect(out.Arn).toBe(alice.arn)
  })

  it('SDK v3 STSClient with the global endpoint signs as us-east-1 and is answered', async () => {
    const alice = cloud.createPrincipal({ type: 'user', name: 'alice' })
    const client = new STSClient({ region: 'us-east-1', useGlobalEndpoint: true, credentials: keys(alice), maxAttempts: 1 } as never)
    expect((await client.send(new GetCallerIdentityCommand({}))).Account).toBe(alice.account_id)
    expect(doppel.journal.entries().at(-1)?.url).toBe('https://sts.amazonaws.com/')
  })

  it('a eu-west-1 scope sent to the global endpoint is SignatureDoesNotMatch, apostrophes written as they are', async () => {
    const alice = cloud.createPrincipal({ type: 'user', name: 'alice' })
    const response = await signedCall(alice, 'eu-west-1', 'https://sts.amazonaws.com/')
    expect(response.status).toBe(403)
    expect(response.headers.get('content-type')).toBe('text/xml')
    const body = await response.text()
    expect(body).toContain('<Code>SignatureDoesNotMatch</Code>')
    expect(body).toContain("<Message>Credential should be scoped to a valid region, not 'eu-west-1'. </Message>")
    expect(body).not.toContain('&apos;')
  })

  it('a scope for another region than the regional endpoint is refused; the matching one passes', async () => {
    const alice = cloud.createPrincipal({ type: 'user', name: 'alice' })
    const wrong = await signedCall(alice, 'us-east-1', 'https://sts.eu-west-1.amazonaws.com/')
    expect(wrong.status).toBe(403)
    expect(await wrong.text()).toContain("not 'us-east-1'. ")
    expect((await signedCall(alice, 'eu-west-1', 'https://sts.eu-west-1.amazonaws.com/')).status).toBe(200)
  })

  it('a region that does not exist is refused everywhere, also on an endpoint override', async () => {
    const alice = cloud.createPrincipal({ type: 'user', name: 'alice' })
    for (const url of ['https://sts.amazonaws.com/', 'http://doppel.test/_doppel/cloud/sts/']) {
      const response = await signedCall(alice, 'nowhere-1', url)
      expect(response.status).toBe(403)
      expect(await response.text()).toContain("<Message>Credential should be scoped to a valid region, not 'nowhere-1'. </Message>")
    }
  })

  it('an endpoint override accepts any known region (the SDK signs it with the client region)', async () => {
    const alice = cloud.createPrincipal({ type: 'user', name: 'alice' })
    const server = await startServer(doppel)
    try {
      const client = new STSClient({ region: 'ap-south-1', endpoint: `${server.url}/_doppel/cloud/sts`, credentials: keys(alice), maxAttempts: 1 })
      expect((await client.send(new GetCallerIdentityCommand({}))).Arn).toBe(alice.arn)
    } finally {
      await server.close()
    }
  })

  it('a scope for another service is refused with the service STS expects', async () => {
    const alice = cloud.createPrincipal({ type: 'user', name: 'alice' })
    const signer = new SignatureV4({ service: 'iam', region: 'us-east-1', credentials: keys(alice), sha256: NodeSha256 })
    const signed = await signer.sign(
      { method: 'POST', protocol: 'https:', hostname: 'sts.amazonaws.com', path: '/', headers: { host: 'sts.amazonaws.com', 'content-type': 'application/x-www-form-urlencoded' }, body: STS_BODY },
      { signingDate: doppel.clock.now() },
    )
    const response = await doppel.fetch('https://sts.amazonaws.com/', { method: 'POST', headers: signed.headers as Record<string, string>, body: STS_BODY })
    expect(response.status).toBe(403)
    expect(await response.text()).toContain("<Message>Credential should be scoped to correct service: 'sts'. </Message>")
  })
})
