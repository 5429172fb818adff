import { request as httpRequest } from 'node:http'
import { SignatureV4 } from '@smithy/signature-v4'
import aws4 from 'aws4'
import fc from 'fast-check'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createDoppel } from '../../src/features/doppel/index.ts'
import { getFakeCloud, type Principal } from '../../src/services/fake-cloud/index.ts'
import { NodeSha256, startServer, STS_BODY, xmlError, type TestServer } from './helpers.ts'

// SigV4 verified for real: aws4 (header and presigned query), @smithy/signature-v4 (header and presign),
// Vault-style replays on `//`, and every refusal with AWS's code, status and message.
const START = '2024-03-05T09:41:27Z'
const doppel = createDoppel({ seed: 11, clock: { start: START, frozen: true } })
const cloud = getFakeCloud(doppel)
let server: TestServer
let alice: Principal
beforeAll(async () => {
  server = await startServer(doppel)
})
afterAll(() => server.close())
beforeEach(async () => {
  await doppel.reset()
  alice = cloud.createPrincipal({ type: 'user', name: 'alice' })
})

const creds = (p: Principal) => ({ accessKeyId: p.access_key_id, secretAccessKey: p.secret_access_key, sessionToken: p.session_token })
const amzDate = (offsetMs = 0) =>
  new Date(doppel.clock.nowMs() + offsetMs).toISOString().replace(/[-:]/g, '').replace(/\.\d{3}Z$/, 'Z')

/** An aws4-signed POST GetCallerIdentity for `host` + `path`, as a Fetch Request to `url`. */
function aws4Post(url: string, options: { host?: string; path?: string; body?: string; date?: string; principal?: Principal; service?: string } = {}) {
  const target = new URL(url)
  const signed = aws4.sign(
    {
      host: options.host ?? target.host,
      path: options.path ?? target.pathname,
      method: 'POST',
      service: options.service ?? 'sts',
      region: 'us-east-1',
      body: STS_BODY,
      headers: { 'Content-Type': 'application/x-www-form-urlencoded; charset=utf-8', 'X-Amz-Date': options.date ?? amzDate() },
    },
    creds(options.principal ?? alice),
  )
  return new Request(url, { method: 'POST', headers: signed.headers as Record<string, string>, body: options.body ?? STS_BODY })
}

async function stsCall(request: Request) {
  const response = await doppel.fetch(request)
  const body = await response.text()
  return { status: response.status, body, ...xmlError(body), arn: /<Arn>([^<]*)<\/Arn>/.exec(body)?.[1], headers: response.headers }
}

describe('accepted signatures', () => {
  it('aws4 header signing on the real STS hostname: text/xml exactly, request id and the emulator Date', async () => {
    const result = await stsCall(aws4Post('https://sts.amazonaws.com/'))
    expect(result).toMatchObject({ status: 200, arn: alice.arn })
    expect(result.body.startsWith('<GetCallerIdentityResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/">')).toBe(true)
    expect(result.body).toContain(`<UserId>${alice.unique_id}</UserId>`)
    expect(result.headers.get('content-type')).toBe('text/xml')
    expect(result.headers.get('x-amzn-requestid')).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
    expect(result.headers.get('date')).toBe(new Date(START).toUTCString())
  })

  it('aws4 presigned query (GET) with a session token', async () => {
    const role = cloud.createPrincipal({ type: 'role', name: 'deployer' })
    const signed = aws4.sign(
      {
        host: 'sts.amazonaws.com',
        path: `/?Action=GetCallerIdentity&Version=2011-06-15&X-Amz-Date=${amzDate()}`,
        method: 'GET',
        service: 'sts',
        region: 'us-east-1',
        signQuery: true,
      },
      creds(role),
    )
    expect(signed.path).toContain('X-Amz-Security-Token=')
    const result = await stsCall(new Request(`https://sts.amazonaws.com${signed.path}`))
    expect(result).toMatchObject({ status: 200, arn: 'arn:aws:sts::123456789012:assumed-role/deployer/doppel-session' })
  })

  it('@smithy/signature-v4 header signing and presigning, with a session token holding / + =', async () => {
    const role = cloud.createPrincipal({ type: 'role', name: 'deployer' })
    expect(role.session_token).toMatch(/[/+=]/)
    const signer = new SignatureV4({
      credentials: { accessKeyId: role.access_key_id, secretAccessKey: role.secret_access_key, sessionToken: role.session_token! },
      region: 'us-east-1',
      service: 'sts',
      sha256: NodeSha256,
    })
    const base = { protocol: 'https:', hostname: 'sts.us-east-1.amazonaws.com', path: '/', headers: { host: 'sts.us-east-1.amazonaws.com' } }
    const post = await signer.sign(
      { ...base, method: 'POST', body: STS_BODY, headers: { ...base.headers, 'content-type': 'application/x-www-form-urlencoded' } },
      { signingDate: doppel.clock.now() },
    )
    const posted = await stsCall(new Request('https://sts.us-east-1.amazonaws.com/', { method: 'POST', headers: post.headers, body: STS_BODY }))
    expect(posted).toMatchObject({ status: 200, arn: 'arn:aws:sts::123456789012:assumed-role/deployer/doppel-session' })

    const presigned = await signer.presign(
      { ...base, method: 'GET', query: { Action: 'GetCallerIdentity', Version: '2011-06-15' } },
      { signingDate: doppel.clock.now(), expiresIn: 900 },
    )
    const query = new URLSearchParams(presigned.query as Record<string, string>).toString()
    const got = await stsCall(new Request(`https://sts.us-east-1.amazonaws.com/?${query}`, { headers: presigned.headers }))
    expect(got).toMatchObject({ status: 200, arn: 'arn:aws:sts::123456789012:assumed-role/deployer/doppel-session' })
  })

  it('a Vault-style replay on `//`: signed for the root, for the mount, or with the mount twice', async () => {
    const shapes = [
      { signedPath: '/', deliveredPath: '/_doppel/cloud/sts//', host: 'sts.amazonaws.com' },
      { signedPath: '/_doppel/cloud/sts/', deliveredPath: '/_doppel/cloud/sts//_doppel/cloud/sts/', host: 'doppel.test:8200' },
      { signedPath: '/_doppel/cloud/sts/', deliveredPath: '/_doppel/cloud/sts/', host: 'doppel.test:8200' },
    ]
    for (const shape of shapes) {
      const request = aws4Post(`http://doppel.test${shape.deliveredPath}`, { host: shape.host, path: shape.signedPath })
      expect(await stsCall(request)).toMatchObject({ status: 200, arn: alice.arn })
    }
    const direct = await getFakeCloud(doppel).forwardSts(aws4Post('https://sts.amazonaws.com//', { path: '/' }))
    expect(direct.status).toBe(200)
    expect(direct.headers.get('content-type')).toBe('text/xml')
  })

  it('over a real socket, with the client Host header (port included) as received', async () => {
    const port = new URL(server.url).port
    for (const [host, path] of [
      [`127.0.0.1:${port}`, '/_doppel/cloud/sts/'],
      ['sts.amazonaws.com', '/'],
    ] as const) {
      const signed = aws4.sign(
        { host, path, method: 'POST', service: 'sts', region: 'us-east-1', body: STS_BODY, headers: { 'X-Amz-Date': amzDate() } },
        creds(alice),
      )
      const { status, body } = await rawPost(Number(port), '/_doppel/cloud/sts//', signed.headers as Record<string, string>, STS_BODY)
      expect(status).toBe(200)
      expect(body).toContain(`<Arn>${alice.arn}</Arn>`)
    }
  })

  it('routes by the credential scope on the cloud listener, where the host tells nothing', async () => {
    const cloudServer = await startServer(doppel, 'cloud')
    try {
      const port = Number(new URL(cloudServer.url).port)
      for (const service of ['sts', 'iam'] as const) {
        const body = service === 'sts' ? STS_BODY : 'Action=GetUser&Version=2010-05-08'
        const signed = aws4.sign(
          { host: `127.0.0.1:${port}`, path: '/', method: 'POST', service, region: 'us-east-1', body, headers: { 'X-Amz-Date': amzDate() } },
          creds(alice),
        )
        const result = await rawPost(port, '/', signed.headers as Record<string, string>, body)
        expect(result.status).toBe(200)
        expect(result.body).toContain(service === 'sts' ? '<GetCallerIdentityResponse' : '<UserName>alice</UserName>')
      }
    } finally {
      await cloudServer.close()
    }
  })
})

describe('refused signatures', () => {
  const STS = 'https://sts.amazonaws.com/'

  it('a wrong secret: SignatureDoesNotMatch 403 with the AWS message', async () => {
    const result = await stsCall(aws4Post(STS, { principal: { ...alice, secret_access_key: 'x'.repeat(40) } }))
    expect(result).toMatchObject({
      status: 403,
      code: 'SignatureDoesNotMatch',
      message:
        'The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method. Consult the service documentation for details.',
    })
    expect(result.body).toContain('<Type>Sender</Type>')
    expect(result.headers.get('content-type')).toBe('text/xml')
  })

  it('a tampered body, a tampered signed header, or a different path: SignatureDoesNotMatch', async () => {
    expect(await stsCall(aws4Post(STS, { body: 'Action=GetCallerIdentity&Version=2011-06-16' }))).toMatchObject({ status: 403, code: 'SignatureDoesNotMatch' })
    const request = aws4Post(STS)
    const headers = new Headers(request.headers)
    headers.set('content-type', 'application/x-www-form-urlencoded')
    expect(await stsCall(new Request(STS, { method: 'POST', headers, body: STS_BODY }))).toMatchObject({ code: 'SignatureDoesNotMatch' })
    expect(await stsCall(aws4Post('https://sts.amazonaws.com/other/', { path: '/' }))).toMatchObject({ code: 'SignatureDoesNotMatch' })
  })

  it('a date 16 minutes old or ahead, against the emulator clock', async () => {
    const stale = aws4Post(STS)
    doppel.clock.advance('16m')
    expect(await stsCall(stale)).toMatchObject({
      status: 403,
      code: 'SignatureDoesNotMatch',
      message: 'Signature expired: 20240305T094127Z is now earlier than 20240305T094227Z (20240305T095727Z - 15 min.)',
    })
    const ahead = aws4Post(STS, { date: amzDate(16 * 60 * 1000) })
    expect(await stsCall(ahead)).toMatchObject({
      status: 403,
      code: 'SignatureDoesNotMatch',
      message: 'Signature not yet current: 20240305T101327Z is still later than 20240305T101227Z (20240305T095727Z + 15 min.)',
    })
    expect(await stsCall(aws4Post(STS, { date: amzDate(14 * 60 * 1000) }))).toMatchObject({ status: 200 })
  })

  it('an unknown key, a deleted key, a missing or wrong session token: InvalidClientTokenId', async () => {
    const invalid = { status: 403, code: 'InvalidClientTokenId', message: 'The security token included in the request is invalid.' }
    expect(await stsCall(aws4Post(STS, { principal: { ...alice, access_key_id: 'AKIAIOSFODNN7EXAMPLE' } }))).toMatchObject(invalid)
    const role = cloud.createPrincipal({ type: 'role', name: 'deployer' })
    expect(await stsCall(aws4Post(STS, { principal: { ...role, session_token: undefined } }))).toMatchObject(invalid)
    expect(await stsCall(aws4Post(STS, { principal: { ...role, session_token: role.session_token + 'x' } }))).toMatchObject(invalid)
    expect(await stsCall(aws4Post(STS, { principal: { ...alice, session_token: 'unexpected' } }))).toMatchObject(invalid)
    cloud.deletePrincipal(alice.arn)
    expect(await stsCall(aws4Post(STS))).toMatchObject(invalid)
  })

  it('an expired session: ExpiredToken', async () => {
    const role = cloud.createPrincipal({ type: 'role', name: 'deployer' })
    doppel.clock.advance('1h')
    expect(await stsCall(aws4Post(STS, { principal: role }))).toMatchObject({
      status: 403,
      code: 'ExpiredToken',
      message: 'The security token included in the request is expired',
    })
  })

  it('no authentication, an incomplete header, a bad scope', async () => {
    const unsigned = new Request(STS, { method: 'POST', body: STS_BODY, headers: { 'content-type': 'application/x-www-form-urlencoded' } })
    expect(await stsCall(unsigned)).toMatchObject({ status: 403, code: 'MissingAuthenticationToken', message: 'Request is missing Authentication Token' })
    const incomplete = new Request(STS, { method: 'POST', body: STS_BODY, headers: { authorization: 'AWS4-HMAC-SHA256 SignedHeaders=host' } })
    expect(await stsCall(incomplete)).toMatchObject({
      status: 400,
      code: 'IncompleteSignature',
      message:
        "Authorization header requires 'Credential' parameter. Authorization header requires 'Signature' parameter. Authorization header requires existence of either a 'X-Amz-Date' or a 'Date' header. Authorization=AWS4-HMAC-SHA256 SignedHeaders=host",
    })
    const wrongService = await stsCall(aws4Post(STS, { service: 'iam' }))
    expect(wrongService).toMatchObject({ status: 403, code: 'SignatureDoesNotMatch', message: "Credential should be scoped to correct service: 'sts'. " })
    const request = aws4Post(STS)
    const headers = new Headers(request.headers)
    headers.set('authorization', headers.get('authorization')!.replace('/20240305/', '/20240304/'))
    expect(await stsCall(new Request(STS, { method: 'POST', headers, body: STS_BODY }))).toMatchObject({
      code: 'SignatureDoesNotMatch',
      message: "Date in Credential scope does not match YYYYMMDD from ISO-8601 version of date from HTTP: '20240304' != '20240305', from '20240305T094127Z'.",
    })
  })

  it('EC2 reports the same failures as AuthFailure 401 and RequestExpired 400, in its own envelope', async () => {
    const body = 'Action=DescribeInstances&Version=2016-11-15'
    const sign = (principal: Principal, date = amzDate()) => {
      const signed = aws4.sign(
        { host: 'ec2.us-east-1.amazonaws.com', path: '/', method: 'POST', service: 'ec2', region: 'us-east-1', body, headers: { 'X-Amz-Date': date } },
        creds(principal),
      )
      return new Request('https://ec2.us-east-1.amazonaws.com/', { method: 'POST', headers: signed.headers as Record<string, string>, body })
    }
    const ok = await doppel.fetch(sign(alice))
    expect(ok.status).toBe(200)
    expect(await ok.text()).toContain('<reservationSet/>')
    const bad = await doppel.fetch(sign({ ...alice, secret_access_key: 'y'.repeat(40) }))
    const badBody = await bad.text()
    expect(bad.status).toBe(401)
    expect(badBody).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<Response><Errors><Error><Code>AuthFailure<\/Code>/)
    expect(badBody).toMatch(/<RequestID>[0-9a-f-]{36}<\/RequestID><\/Response>$/)
    const stale = await doppel.fetch(sign(alice, amzDate(-16 * 60 * 1000)))
    expect(stale.status).toBe(400)
    expect(xmlError(await stale.text())).toEqual({ code: 'RequestExpired', message: 'Request has expired.' })
  })

  it('any parameter text signed by aws4 (form body or presigned query) verifies: canonicalisation matches the client', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'grapheme', maxLength: 20 }), fc.boolean(), async (value, presign) => {
        const params = `Action=GetCallerIdentity&Version=2011-06-15&Extra=${encodeURIComponent(value)}`
        const base = { host: 'sts.amazonaws.com', service: 'sts', region: 'us-east-1' }
        let request: Request
        if (presign) {
          const signed = aws4.sign({ ...base, path: `/?${params}&X-Amz-Date=${amzDate()}`, method: 'GET', signQuery: true }, creds(alice))
          request = new Request(`https://sts.amazonaws.com${signed.path}`)
        } else {
          const signed = aws4.sign({ ...base, path: '/', method: 'POST', body: params, headers: { 'X-Amz-Date': amzDate() } }, creds(alice))
          request = new Request(STS, { method: 'POST', headers: signed.headers as Record<string, string>, body: params })
        }
        expect((await stsCall(request)).status).toBe(200)
      }),
      { numRuns: 100 },
    )
  })

  it('a missing or unknown Action, once the request is authenticated', async () => {
    const signed = (body: string) => {
      const s = aws4.sign(
        { host: 'sts.amazonaws.com', path: '/', method: 'POST', service: 'sts', region: 'us-east-1', body, headers: { 'X-Amz-Date': amzDate() } },
        creds(alice),
      )
      return new Request(STS, { method: 'POST', headers: s.headers as Record<string, string>, body })
    }
    expect(await stsCall(signed('Version=2011-06-15'))).toMatchObject({ status: 400, code: 'MissingAction', message: 'Missing Action' })
    expect(await stsCall(signed('Action=GetSessionToken&Version=2011-06-15'))).toMatchObject({
      status: 400,
      code: 'InvalidAction',
      message: 'Could not find operation GetSessionToken for version 2011-06-15',
    })
  })

  it('random headers, queries and bodies never give a 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string(), fc.string(), fc.string(), fc.constantFrom('sts', 'iam', 'ec2'), async (authorization, query, body, service) => {
        const headers = new Headers()
        try {
          headers.set('authorization', authorization)
        } catch {
          return
        }
        const response = await doppel.fetch(
          new Request(`https://doppel.test/_doppel/cloud/${service}/?${encodeURIComponent(query)}`, { method: 'POST', headers, body }),
        )
        expect(response.status).toBeGreaterThanOrEqual(400)
        expect(response.status).toBeLessThan(500)
      }),
      { numRuns: 200 },
    )
  })

  it('well-formed but wrong signatures from a known key (random signed headers, signatures, paths) are refused, never a 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string(), fc.string(), fc.webPath(), async (signedHeaders, signature, path) => {
        const authorization = `AWS4-HMAC-SHA256 Credential=${alice.access_key_id}/20240305/us-east-1/sts/aws4_request, SignedHeaders=host;${signedHeaders}, Signature=${signature}`
        const headers = new Headers({ 'x-amz-date': amzDate() })
        try {
          headers.set('authorization', authorization)
        } catch {
          return
        }
        const result = await stsCall(new Request(`https://sts.amazonaws.com${path.startsWith('/') ? path : `/${path}`}`, { method: 'POST', headers, body: STS_BODY }))
        expect(result.status).toBeGreaterThanOrEqual(400)
        expect(result.status).toBeLessThan(500)
      }),
      { numRuns: 200 },
    )
  })

  it('never answers a garbled request with a 5xx, and leaves the inventory unchanged', async () => {
    const before = JSON.stringify(doppel.store.snapshot())
    const garbled: Record<string, string>[] = [
      { authorization: 'AWS4-HMAC-SHA256 Credential=a/b, SignedHeaders=host, Signature=00' },
      { authorization: 'AWS4-HMAC-SHA256 Credential=%ZZ, SignedHeaders=, Signature=' },
      { authorization: 'Bearer abc' },
      { authorization: 'AWS4-HMAC-SHA256 Credential=AKIA/20240305/us-east-1/sts/aws4_request, SignedHeaders=host, Signature=zz', 'x-amz-date': 'yesterday' },
    ]
    for (const headers of garbled) {
      const response = await doppel.fetch(new Request(`${STS}?X-Amz-Foo=%E0%A4%A`, { method: 'POST', headers, body: '%%%&&==' }))
      expect(response.status).toBeGreaterThanOrEqual(400)
      expect(response.status).toBeLessThan(500)
    }
    expect(JSON.stringify(doppel.store.snapshot())).toBe(before)
  })
})

function rawPost(port: number, path: string, headers: Record<string, string>, body: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, method: 'POST', headers }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('end', () => resolve({ status: res.statusCode!, body: Buffer.concat(chunks).toString('utf8') }))
    })
    req.on('error', reject)
    req.end(body)
  })
}
