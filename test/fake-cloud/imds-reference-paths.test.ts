import { createPrivateKey, createPublicKey, sign, verify } from 'node:crypto'
import type { AddressInfo } from 'node:net'
import { MetadataService } from '@aws-sdk/ec2-metadata-service'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Instance } from '../../src/services/fake-cloud/index.ts'
import { createDoppel, createDoppelServer } from '../../src/index.ts'
import { startMsw } from './helpers.ts'

// Every IMDS listing and leaf the reference names (docs/reference/fake-cloud.md §2.2, docs/reference/fake-cloud.md §2.4, docs/reference/fake-cloud.md §2.5), through three faces: MSW in
// process (169.254.169.254), the `doppel serve --cloud-port` listener, and the SDK's own metadata client on a
// per-instance listener.
const REFERENCE_META_DATA = [
  'ami-id', 'ami-launch-index', 'ami-manifest-path', 'block-device-mapping/', 'events/', 'hostname', 'iam/',
  'instance-action', 'instance-id', 'instance-life-cycle', 'instance-type', 'local-hostname', 'local-ipv4', 'mac',
  'metrics/', 'network/', 'placement/', 'profile', 'public-hostname', 'public-ipv4', 'public-keys/',
  'reservation-id', 'security-groups', 'services/',
]
const REFERENCE_IDENTITY = ['rsa2048', 'pkcs7', 'document', 'signature', 'dsa2048']

const doppel = createDoppel({ seed: 21 })
const cloud = doppel.cloud
const msw = startMsw(doppel)
const cloudServer = createDoppelServer(doppel, { surface: 'cloud' })
let cloudUrl: string
beforeAll(async () => {
  await new Promise<void>((resolve) => cloudServer.listen(0, '127.0.0.1', resolve))
  cloudUrl = `http://127.0.0.1:${(cloudServer.address() as AddressInfo).port}`
})
afterAll(async () => {
  msw.close()
  cloudServer.closeAllConnections()
  await new Promise((resolve) => cloudServer.close(resolve))
  await cloud.close()
})

type Get = (path: string) => Promise<{ status: number; body: string }>

/** The faces, each reading as the instance `useInstance` chose (the listener: its own instance). */
const faces: [string, (instance: Instance) => Promise<Get>][] = [
  ['MSW, 169.254.169.254', async () => fetchFrom('http://169.254.169.254')],
  ['the cloud listener of doppel serve', async () => fetchFrom(cloudUrl)],
  [
    '@aws-sdk/ec2-metadata-service on the instance listener',
    async (instance) => {
      const { endpoint } = await cloud.startImdsListener(instance.instance_id)
      const metadata = new MetadataService({ endpoint, retries: 0, httpOptions: { timeout: 5000 } })
      return async (path) => {
        try {
          return { status: 200, body: await metadata.request(path, {}) }
        } catch (error) {
          const status = Number(/\b(\d{3})\b/.exec(String(error))?.[1])
          return { status: Number.isFinite(status) ? status : 0, body: '' }
        }
      }
    },
  ],
]

/** An IMDSv2 reader at `origin`: one token, then GETs carrying it. */
function fetchFrom(origin: string): Get {
  let token: Promise<string> | undefined
  return async (path) => {
    token ??= fetch(`${origin}/latest/api/token`, { method: 'PUT', headers: { 'X-aws-ec2-metadata-token-ttl-seconds': '600' } }).then((r) => r.text())
    const response = await fetch(`${origin}${path}`, { headers: { 'X-aws-ec2-metadata-token': await token } })
    return { status: response.status, body: await response.text() }
  }
}

/** Reads `path` (200 expected) as a listing. */
async function listing(get: Get, path: string): Promise<string[]> {
  const { status, body } = await get(path)
  expect(status, path).toBe(200)
  return body.split('\n')
}

/** The SSH wire format of an OpenSSH public key line: its strings, each a uint32 length and bytes. */
function sshStrings(line: string): { type: string; strings: Buffer[]; comment: string } {
  const [type, base64, comment] = line.split(' ')
  const wire = Buffer.from(base64!, 'base64')
  const strings: Buffer[] = []
  for (let at = 0; at < wire.length; ) {
    const length = wire.readUInt32BE(at)
    strings.push(wire.subarray(at + 4, at + 4 + length))
    at += 4 + length
    expect(at).toBeLessThanOrEqual(wire.length)
  }
  return { type: type!, strings, comment: comment! }
}

describe.each(faces)('IMDS paths the reference names, through %s', (_face, open) => {
  let instance: Instance
  let get: Get
  beforeAll(async () => {
    instance = cloud.createInstance({ iam_role_name: `web-${_face.length}`, key_name: 'deploy-key', region: 'eu-west-1' })
    cloud.useInstance(instance.instance_id)
    get = await open(instance)
  })

  it('meta-data/ lists exactly the reference entries, in its order; dynamic/instance-identity/ too', async () => {
    expect(await listing(get, '/latest/meta-data/')).toEqual(REFERENCE_META_DATA)
    expect(await listing(get, '/latest/dynamic/instance-identity/')).toEqual(REFERENCE_IDENTITY)
  })

  it('every listing walked: each entry answers, with and without a trailing slash', async () => {
    const walk = async (path: string): Promise<number> => {
      let leaves = 0
      for (const entry of await listing(get, path)) {
        // `public-keys/` lists `0=<key name>`; the key's directory is `0/`.
        const child = /^\d+=/.test(entry) ? `${entry.split('=')[0]}/` : entry
        if (child.endsWith('/')) leaves += await walk(`${path}${child}`)
        else {
          for (const leaf of [`${path}${child}`, `${path}${child}/`]) expect((await get(leaf)).status, leaf).toBe(200)
          leaves++
        }
      }
      return leaves
    }
    expect(await walk('/latest/meta-data/')).toBeGreaterThan(40)
    expect(await walk('/latest/dynamic/')).toBe(5)
  })

  it('leaves: placement, network, iam, public address and the key pair', async () => {
    const mac = (await get('/latest/meta-data/mac')).body
    const leaves: Record<string, string> = {
      'placement/region': 'eu-west-1',
      'placement/availability-zone': instance.availability_zone,
      [`network/interfaces/macs/${mac}/subnet-id`]: instance.subnet_id,
      [`network/interfaces/macs/${mac}/vpc-id`]: instance.vpc_id,
      [`network/interfaces/macs/${mac}/public-ipv4s`]: instance.public_ip!,
      [`network/interfaces/macs/${mac}/public-hostname`]: instance.public_dns_name!,
      [`network/interfaces/macs/${mac}/ipv4-associations/${instance.public_ip}`]: instance.private_ip,
      'iam/security-credentials/': instance.iam_role_name!,
      'public-ipv4': instance.public_ip!,
      'public-hostname': `ec2-${instance.public_ip!.replace(/\./g, '-')}.eu-west-1.compute.amazonaws.com`,
      'public-keys/': '0=deploy-key',
      'public-keys/0/': 'openssh-key',
      'public-keys/0': 'openssh-key',
    }
    for (const [path, value] of Object.entries(leaves)) expect(await get(`/latest/meta-data/${path}`), path).toEqual({ status: 200, body: value })
    expect(instance.public_ip).toMatch(/^(3|18|34|35|44|52|54)\.\d{1,3}\.\d{1,3}\.\d{1,3}$/)
    expect(JSON.parse((await get('/latest/meta-data/iam/info')).body)).toMatchObject({ Code: 'Success', InstanceProfileArn: instance.instance_profile_arn })
    // `0=<name>` is how the directory lists itself, not a path.
    expect((await get('/latest/meta-data/public-keys/0=deploy-key')).status).toBe(404)
  })
})

describe('public address and key pair: present only when the instance has them', () => {
  it('no public IP and no key pair: no public-* entries at all, and 404 for them', async () => {
    const instance = cloud.createInstance({ public_ip: null })
    expect(instance).toMatchObject({ public_ip: null, public_dns_name: null, key_name: null })
    cloud.useInstance(instance.instance_id)
    const get = fetchFrom('http://169.254.169.254')
    const entries = await listing(get, '/latest/meta-data/')
    expect(entries).toEqual(REFERENCE_META_DATA.filter((e) => !e.startsWith('public-') && e !== 'iam/'))
    for (const path of ['public-ipv4', 'public-hostname', 'public-keys/', 'public-keys/0/openssh-key']) {
      expect((await get(`/latest/meta-data/${path}`)).status, path).toBe(404)
    }
    const mac = (await get('/latest/meta-data/mac')).body
    expect(await listing(get, `/latest/meta-data/network/interfaces/macs/${mac}/`)).not.toContain('public-ipv4s')
  })

  it('a given public IP and DNS name are served as given; us-east-1 names are compute-1', () => {
    const given = cloud.createInstance({ public_ip: '54.1.2.3', public_dns_name: 'web.example.com' })
    expect(given).toMatchObject({ public_ip: '54.1.2.3', public_dns_name: 'web.example.com' })
    expect(cloud.createInstance({ public_ip: '3.80.1.2', region: 'us-east-1' }).public_dns_name).toBe('ec2-3-80-1-2.compute-1.amazonaws.com')
  })

  it('a fixture sets them too (the fixture schema takes the fields)', async () => {
    const fixture = 'version: 1\ncloud:\n  instances:\n    - { instance_id: i-0f1e2d3c4b5a69788, key_name: fixture-key, public_ip: null }\n'
    const loaded = await doppel.fetch('http://doppel.test/_doppel/fixtures', { method: 'POST', headers: { 'Content-Type': 'application/yaml' }, body: fixture })
    expect(loaded.status).toBe(201)
    expect(cloud.getInstance('i-0f1e2d3c4b5a69788')).toMatchObject({ key_name: 'fixture-key', public_ip: null, public_dns_name: null })
  })

  it('bad public fields are 400 with the field named', async () => {
    const server = (body: unknown) =>
      doppel.fetch('http://doppel.test/_doppel/cloud/instances', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) })
    const cases: [unknown, string][] = [
      [{ public_ip: '300.1.1.1' }, 'Failed to create an instance: "public_ip" must be an IPv4 address, or null for none'],
      [{ public_dns_name: 'bad name' }, 'Failed to create an instance: "public_dns_name" must be a DNS name such as "ec2-3-80-1-2.compute-1.amazonaws.com"'],
      [{ key_name: '' }, 'Failed to create an instance: "key_name" must be a key pair name of 1 to 255 ASCII characters, or null for none'],
      [{ key_name: 'x\ny' }, 'Failed to create an instance: "key_name" must be a key pair name of 1 to 255 ASCII characters, or null for none'],
      [{ public_ip: null, public_dns_name: 'a.example' }, 'Failed to create an instance: "public_dns_name" needs a public IP ("public_ip" is null)'],
    ]
    for (const [body, message] of cases) {
      const response = await server(body)
      expect({ status: response.status, json: await response.json() }).toEqual({ status: 400, json: { errors: [message] } })
    }
  })
})

describe('the OpenSSH public key', () => {
  const openssh = async (instance: Instance) => {
    cloud.useInstance(instance.instance_id)
    const { status, body } = await fetchFrom('http://169.254.169.254')('/latest/meta-data/public-keys/0/openssh-key')
    expect(status).toBe(200)
    return body
  }

  it('is an ssh-ed25519 line whose wire format carries the key, named for the key pair', async () => {
    const line = await openssh(cloud.createInstance({ key_name: 'ops' }))
    expect(line).toMatch(/^ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI[A-Za-z0-9+/]+=* ops$/)
    const { type, strings, comment } = sshStrings(line)
    expect([type, comment, strings.length, strings[0]!.toString()]).toEqual(['ssh-ed25519', 'ops', 2, 'ssh-ed25519'])
    expect(strings[1]!.length).toBe(32)
    // The same 32 bytes as Node's own JWK of the key, imported back from the wire format.
    const jwk = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: strings[1]!.toString('base64url') }, format: 'jwk' }).export({ format: 'jwk' })
    expect(Buffer.from(jwk.x!, 'base64url')).toEqual(strings[1])
  })

  it('is the public half of the key pair the instance holds (its private seed travels in a snapshot)', async () => {
    const instance = cloud.createInstance({ key_name: 'holder' })
    const { strings } = sshStrings(await openssh(instance))
    const saved = doppel.snapshot() as unknown as { domains: { 'fake-cloud': { instances: { instance_id: string; key_pair_seed: string }[] } } }
    const seed = saved.domains['fake-cloud'].instances.find((i) => i.instance_id === instance.instance_id)!.key_pair_seed
    const privateKey = createPrivateKey({ key: Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), Buffer.from(seed, 'base64')]), format: 'der', type: 'pkcs8' })
    const publicKey = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: strings[1]!.toString('base64url') }, format: 'jwk' })
    const message = Buffer.from('doppel')
    expect(verify(null, message, publicKey, sign(null, message, privateKey))).toBe(true)
    expect(verify(null, Buffer.from('other'), publicKey, sign(null, message, privateKey))).toBe(false)
  })

  it('one key pair per account, region and name: the same name shares it, another name or account does not', async () => {
    const first = await openssh(cloud.createInstance({ key_name: 'shared', region: 'us-west-2' }))
    const second = await openssh(cloud.createInstance({ key_name: 'shared', region: 'us-west-2' }))
    const renamed = await openssh(cloud.createInstance({ key_name: 'other', region: 'us-west-2' }))
    const elsewhere = await openssh(cloud.createInstance({ key_name: 'shared', region: 'us-west-2', account_id: '210987654321' }))
    expect(second).toBe(first)
    expect(sshStrings(renamed).strings[1]).not.toEqual(sshStrings(first).strings[1])
    expect(elsewhere).not.toBe(first)
  })

  it('the same seed gives the same public address and key', async () => {
    const again = createDoppel({ seed: 21 })
    const mine = createDoppel({ seed: 21 })
    const a = again.cloud.createInstance({ key_name: 'k' })
    const b = mine.cloud.createInstance({ key_name: 'k' })
    expect(a.public_ip).toBe(b.public_ip)
    mine.cloud.useInstance(b.instance_id)
    again.cloud.useInstance(a.instance_id)
    const read = async (d: typeof doppel) => (await d.fetch('http://169.254.169.254/latest/meta-data/public-keys/0/openssh-key')).text()
    expect(await read(again)).toBe(await read(mine))
  })
})
