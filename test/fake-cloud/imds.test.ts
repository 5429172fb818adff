import { beforeEach, describe, expect, it } from 'vitest'
import { createDoppel } from '../../src/features/doppel/index.ts'
import { getFakeCloud, type Instance } from '../../src/services/fake-cloud/index.ts'

// The instance metadata service: IMDSv1/v2 sessions with the statuses of docs/reference/fake-cloud.md §2.1, the paths of docs/reference/fake-cloud.md §2.2,
// role credentials (docs/reference/fake-cloud.md §2.5), at 169.254.169.254 (MSW mode), under /_doppel/cloud/imds/<id>, and on its own socket.
const doppel = createDoppel({ seed: 5, clock: { start: '2024-03-05T09:41:27Z', frozen: true } })
const cloud = getFakeCloud(doppel)
let web: Instance
beforeEach(async () => {
  await doppel.reset()
  web = cloud.createInstance({ iam_role_name: 'web', region: 'eu-west-1', tags: { Name: 'web-1' }, instance_metadata_tags: 'enabled' })
})

const imds = (path: string, init: RequestInit = {}, instance = web) =>
  doppel.fetch(`http://doppel.test/_doppel/cloud/imds/${instance.instance_id}${path}`, init)
const getText = async (path: string, token?: string, instance = web) => {
  const response = await imds(path, token === undefined ? {} : { headers: { 'X-aws-ec2-metadata-token': token } }, instance)
  return { status: response.status, type: response.headers.get('content-type'), body: await response.text() }
}
const token = async (ttl = '21600', instance = web) =>
  (await imds('/latest/api/token', { method: 'PUT', headers: { 'X-aws-ec2-metadata-token-ttl-seconds': ttl } }, instance)).text()

describe('sessions', () => {
  it('PUT /latest/api/token gives a token for 1..21600 seconds and echoes the TTL', async () => {
    const response = await imds('/latest/api/token', { method: 'PUT', headers: { 'X-aws-ec2-metadata-token-ttl-seconds': '60' } })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('text/plain')
    expect(response.headers.get('x-aws-ec2-metadata-token-ttl-seconds')).toBe('60')
    expect(await response.text()).toMatch(/^[A-Za-z0-9+/]+=*$/)
  })

  it('refuses a bad TTL (400), a versioned token path or X-Forwarded-For (403)', async () => {
    for (const ttl of [undefined, '0', '21601', 'abc', '-1', '1.5']) {
      const headers: Record<string, string> = ttl === undefined ? {} : { 'X-aws-ec2-metadata-token-ttl-seconds': ttl }
      expect((await imds('/latest/api/token', { method: 'PUT', headers })).status).toBe(400)
    }
    const ttl = { 'X-aws-ec2-metadata-token-ttl-seconds': '60' }
    expect((await imds('/2021-03-23/api/token', { method: 'PUT', headers: ttl })).status).toBe(403)
    expect((await imds('/latest/api/token', { method: 'PUT', headers: { ...ttl, 'X-Forwarded-For': '10.0.0.1' } })).status).toBe(403)
  })

  it('a GET with an invalid, expired or foreign token is 401; IMDSv1 works unless tokens are required', async () => {
    const valid = await token('60')
    expect((await getText('/latest/meta-data/instance-id', valid)).body).toBe(web.instance_id)
    expect((await getText('/latest/meta-data/instance-id')).body).toBe(web.instance_id)
    const unauthorized = await getText('/latest/meta-data/instance-id', 'bm90IGEgdG9rZW4=')
    expect(unauthorized).toMatchObject({ status: 401, type: 'text/html' })
    expect(unauthorized.body).toContain('401 - Unauthorized')
    const other = cloud.createInstance({ http_tokens: 'required' })
    expect((await getText('/latest/meta-data/instance-id', valid, other)).status).toBe(401)
    expect((await getText('/latest/meta-data/instance-id', undefined, other)).status).toBe(401)
    expect((await getText('/latest/meta-data/instance-id', await token('60', other), other)).body).toBe(other.instance_id)
    doppel.clock.advance('61s')
    expect((await getText('/latest/meta-data/instance-id', valid)).status).toBe(401)
  })
})

describe('paths', () => {
  it('lists directories one per line, sub-directories with a trailing slash; unknown paths are 404', async () => {
    expect((await getText('/')).body.split('\n')).toContain('latest')
    expect((await getText('/latest/')).body).toBe('dynamic\nmeta-data')
    const top = (await getText('/latest/meta-data/')).body.split('\n')
    expect(top).toEqual(expect.arrayContaining(['ami-id', 'instance-id', 'iam/', 'placement/', 'network/', 'local-ipv4', 'tags/']))
    expect((await getText('/latest/meta-data')).body).toBe(top.join('\n'))
    expect((await getText('/latest/meta-data/nope')).status).toBe(404)
    expect((await getText('/latest/meta-data/instance-id/')).body).toBe(web.instance_id)
    expect((await getText('/latest/dynamic/instance-identity/')).body.split('\n').sort()).toEqual(['document', 'dsa2048', 'pkcs7', 'rsa2048', 'signature'])
  })

  it('serves the instance facts at their leaves', async () => {
    const mac = (await getText('/latest/meta-data/mac')).body
    const expected: Record<string, string> = {
      '/latest/meta-data/ami-id': web.ami_id,
      '/latest/meta-data/instance-type': 't3.micro',
      '/latest/meta-data/local-ipv4': web.private_ip,
      '/latest/meta-data/placement/region': 'eu-west-1',
      '/latest/meta-data/placement/availability-zone': web.availability_zone,
      [`/latest/meta-data/network/interfaces/macs/${mac}/subnet-id`]: web.subnet_id,
      [`/latest/meta-data/network/interfaces/macs/${mac}/vpc-id`]: web.vpc_id,
      '/latest/meta-data/tags/instance/Name': 'web-1',
      '/latest/dynamic/instance-identity/document': cloud.identityDocument(web.instance_id, 'document'),
      '/latest/dynamic/instance-identity/rsa2048': cloud.identityDocument(web.instance_id, 'rsa2048'),
      '/latest/dynamic/instance-identity/pkcs7': cloud.identityDocument(web.instance_id, 'pkcs7'),
      '/latest/dynamic/instance-identity/signature': cloud.identityDocument(web.instance_id, 'signature'),
    }
    for (const [path, value] of Object.entries(expected)) {
      expect(await getText(path)).toEqual({ status: 200, type: 'text/plain', body: value })
    }
    const head = await imds('/latest/meta-data/instance-id', { method: 'HEAD' })
    expect(head.status).toBe(200)
    expect(await head.text()).toBe('')
    expect((await imds('/latest/meta-data/instance-id', { method: 'POST' })).status).toBe(405)
  })

  it('has no iam/ directory without a role', async () => {
    const bare = cloud.createInstance()
    expect((await getText('/latest/meta-data/', undefined, bare)).body.split('\n')).not.toContain('iam/')
    expect((await getText('/latest/meta-data/iam/security-credentials/', undefined, bare)).status).toBe(404)
  })
})

describe('role credentials', () => {
  it('iam/info and security-credentials/<role> in AWS JSON; the session is reused until shortly before it expires', async () => {
    const info = JSON.parse((await getText('/latest/meta-data/iam/info')).body)
    expect(info).toEqual({
      Code: 'Success',
      LastUpdated: '2024-03-05T09:41:27Z',
      InstanceProfileArn: web.instance_profile_arn,
      InstanceProfileId: web.instance_profile_id,
    })
    expect((await getText('/latest/meta-data/iam/security-credentials/')).body).toBe('web')
    const raw = (await getText('/latest/meta-data/iam/security-credentials/web')).body
    expect(raw).toMatch(/^\{\n {2}"Code" : "Success",\n/)
    const first = JSON.parse(raw)
    expect(first).toMatchObject({ Code: 'Success', Type: 'AWS-HMAC', Expiration: '2024-03-05T15:41:27Z', LastUpdated: '2024-03-05T09:41:27Z' })
    expect(first.AccessKeyId).toMatch(/^ASIA[A-Z2-7]{16}$/)
    expect(cloud.getCallerIdentity({ accessKeyId: first.AccessKeyId, secretAccessKey: first.SecretAccessKey, sessionToken: first.Token })).toEqual({
      arn: `arn:aws:sts::123456789012:assumed-role/web/${web.instance_id}`,
      userId: `${cloud.getRole(cloud.defaultServiceCredentials(), 'web').id}:${web.instance_id}`,
      account: '123456789012',
    })
    doppel.clock.advance('5h')
    expect(JSON.parse((await getText('/latest/meta-data/iam/security-credentials/web')).body).AccessKeyId).toBe(first.AccessKeyId)
    doppel.clock.advance('50m')
    const rotated = JSON.parse((await getText('/latest/meta-data/iam/security-credentials/web')).body)
    expect(rotated.AccessKeyId).not.toBe(first.AccessKeyId)
    expect(rotated.Expiration).toBe('2024-03-05T21:31:27Z')
  })
})

describe('where it answers', () => {
  it('169.254.169.254 answers for the instance chosen with useInstance, else the last one created', async () => {
    const other = cloud.createInstance()
    const ask = async () => (await doppel.fetch('http://169.254.169.254/latest/meta-data/instance-id')).text()
    expect(await ask()).toBe(other.instance_id)
    cloud.useInstance(web.instance_id)
    expect(await ask()).toBe(web.instance_id)
    expect(() => cloud.useInstance('i-00000000000000000')).toThrow(expect.objectContaining({ code: 'InvalidInstanceID.NotFound' }))
  })

  it('an instance of its own on a socket, closed by close() and by reset()', async () => {
    const response = await doppel.fetch(`http://doppel.test/_doppel/cloud/instances/${web.instance_id}/imds`, { method: 'POST' })
    expect(response.status).toBe(200)
    const { endpoint } = (await response.json()) as { endpoint: string }
    expect(endpoint).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    expect(await (await fetch(`${endpoint}/latest/meta-data/instance-id`)).text()).toBe(web.instance_id)
    expect((await cloud.startImdsListener(web.instance_id)).endpoint).toBe(endpoint)
    await doppel.reset()
    await new Promise((resolve) => setImmediate(resolve))
    await expect(fetch(`${endpoint}/latest/meta-data/instance-id`)).rejects.toThrow()

    const again = cloud.createInstance()
    const second = await cloud.startImdsListener(again.instance_id)
    await cloud.close()
    await expect(fetch(`${second.endpoint}/latest/meta-data/instance-id`)).rejects.toThrow()
  })

  it('an unknown instance answers 404 everywhere', async () => {
    expect((await doppel.fetch('http://doppel.test/_doppel/cloud/imds/i-00000000000000000/latest/meta-data/')).status).toBe(404)
    const response = await doppel.fetch('http://doppel.test/_doppel/cloud/instances/i-00000000000000000/imds', { method: 'POST' })
    expect(response.status).toBe(404)
    expect(await response.json()).toEqual({ errors: ["The instance ID 'i-00000000000000000' does not exist"] })
  })
})
