import { Sha256 } from '@aws-crypto/sha256-js'
import { SignatureV4 } from '@smithy/signature-v4'
import { describe, expect, it } from 'vitest'
import { createDoppel } from '../../src/features/doppel/index.ts'
import { getFakeCloud } from '../../src/services/fake-cloud/index.ts'
import { signedCallerIdentity } from '../../src/faces/scenario/index.ts'
const credentials = { access_key_id: 'AKIAIOSFODNN7EXAMPLE', secret_access_key: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY' }
const now = new Date('2024-03-05T09:41:27Z')

function decode(payload: ReturnType<typeof signedCallerIdentity>) {
  return {
    method: payload.iam_http_request_method,
    url: Buffer.from(payload.iam_request_url, 'base64').toString(),
    body: Buffer.from(payload.iam_request_body, 'base64').toString(),
    headers: JSON.parse(Buffer.from(payload.iam_request_headers, 'base64').toString()) as Record<string, string[]>,
  }
}

describe('cloud.signedCallerIdentity signer', () => {
  it('signs a POST GetCallerIdentity exactly as @smithy/signature-v4 does', async () => {
    const payload = decode(signedCallerIdentity({ credentials, now, serverIdHeader: 'X-Service-Cloud-IAM-Server-ID', serverId: 'vault.example.com' }))
    expect(payload.method).toBe('POST')
    expect(payload.url).toBe('https://sts.amazonaws.com/')
    expect(payload.body).toBe('Action=GetCallerIdentity&Version=2011-06-15')
    expect(Object.keys(payload.headers).sort()).toEqual(['Authorization', 'Content-Type', 'X-Amz-Date', 'X-Service-Cloud-IAM-Server-ID'])
    expect(payload.headers['X-Amz-Date']).toEqual(['20240305T094127Z'])

    const signer = new SignatureV4({
      credentials: { accessKeyId: credentials.access_key_id, secretAccessKey: credentials.secret_access_key },
      region: 'us-east-1',
      service: 'sts',
      sha256: Sha256,
      applyChecksum: false,
    })
    const signed = await signer.sign(
      {
        method: 'POST',
        protocol: 'https:',
        hostname: 'sts.amazonaws.com',
        path: '/',
        headers: {
          host: 'sts.amazonaws.com',
          'content-type': 'application/x-www-form-urlencoded; charset=utf-8',
          'x-service-cloud-iam-server-id': 'vault.example.com',
        },
        body: payload.body,
      },
      { signingDate: now },
    )
    expect(payload.headers.Authorization).toEqual([signed.headers.authorization])
    expect(payload.headers.Authorization![0]).toContain('SignedHeaders=content-type;host;x-amz-date;x-service-cloud-iam-server-id,')
  })

  it('adds the session token of temporary credentials, signed', () => {
    const payload = decode(signedCallerIdentity({ credentials: { ...credentials, session_token: 'FwoGZXIvYXdzEBY' }, now, serverIdHeader: 'X-Vault-AWS-IAM-Server-ID' }))
    expect(payload.headers['X-Amz-Security-Token']).toEqual(['FwoGZXIvYXdzEBY'])
    expect(payload.headers.Authorization![0]).toContain('SignedHeaders=content-type;host;x-amz-date;x-amz-security-token,')
  })

  it('the fake cloud STS verifies both forms, GET presigned with a regional endpoint', async () => {
    const doppel = createDoppel({ seed: 2 })
    const cloud = getFakeCloud(doppel)
    const principal = cloud.createPrincipal({ type: 'role', name: 'ci' })
    for (const options of [{ method: 'POST' as const }, { method: 'GET' as const, region: 'eu-west-1' }]) {
      const payload = decode(signedCallerIdentity({ credentials: principal, now: doppel.clock.now(), serverIdHeader: 'X-Service-Cloud-IAM-Server-ID', serverId: 'me', ...options }))
      const url = new URL(payload.url)
      if (options.method === 'GET') {
        expect(url.host).toBe('sts.eu-west-1.amazonaws.com')
        expect(url.searchParams.get('X-Amz-SignedHeaders')).toBe('host;x-service-cloud-iam-server-id')
        expect(url.searchParams.get('X-Amz-Security-Token')).toBe(principal.session_token)
      }
      const headers = new Headers({ Host: url.host })
      for (const [name, values] of Object.entries(payload.headers)) headers.set(name, values.join(','))
      const response = await cloud.forwardSts(new Request(url, { method: payload.method, headers, ...(payload.body && { body: payload.body }) }))
      const xml = await response.text()
      expect(response.status, xml).toBe(200)
      expect(xml).toContain('<Arn>arn:aws:sts::123456789012:assumed-role/ci/')
    }
  })

  it('refuses a principal without keys', () => {
    expect(() => signedCallerIdentity({ credentials: {} as never, now, serverIdHeader: 'X' })).toThrow('the principal needs access_key_id and secret_access_key')
  })
})
