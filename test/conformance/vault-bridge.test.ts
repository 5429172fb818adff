import { X509Certificate } from 'node:crypto'
import { GetCallerIdentityCommand, STSClient } from '@aws-sdk/client-sts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startVaultBridge, vaultSetupPlan, vaultTeardownPlan } from '../../src/faces/conformance/index.ts'
import { createDoppel, createDoppelServer, listen, type RunningServer } from '../../src/index.ts'
import { main } from '../../src/cli/main.ts'

// The client fields the reference lists for config/client (docs/reference/cloud-auth.md §3.1).
const CLIENT_FIELDS = ['access_key', 'secret_key', 'endpoint', 'iam_endpoint', 'sts_endpoint', 'sts_region', 'use_sts_region_from_client',
  'iam_server_id_header_value', 'allowed_sts_header_values', 'max_retries']

describe('the configuration sent to a real Vault', () => {
  const fake = createDoppel({ seed: 3 })
  const plan = vaultSetupPlan({
    mount: 'doppel-abc',
    cloudUrl: 'http://10.0.0.5:9000',
    credentials: fake.cloud.defaultServiceCredentials(),
    certificates: fake.cloud.builtInCertificates(),
  })

  it('enables a fresh mount of the aws method first', () => {
    expect(plan[0]).toEqual({ method: 'POST', path: '/v1/sys/auth/doppel-abc', body: { type: 'aws', description: 'doppel conformance run' } })
  })

  it('points every provider endpoint at the fake cloud, with its service identity, using only reference fields', () => {
    const client = plan.find((r) => r.path === '/v1/auth/doppel-abc/config/client')!
    expect(Object.keys(client.body!).every((k) => CLIENT_FIELDS.includes(k))).toBe(true)
    expect(client.body).toMatchObject({ endpoint: 'http://10.0.0.5:9000', iam_endpoint: 'http://10.0.0.5:9000', sts_endpoint: 'http://10.0.0.5:9000', sts_region: 'us-east-1' })
    expect(client.body!.access_key).toBe(fake.cloud.defaultServiceCredentials().accessKeyId)
  })

  it('registers each fake signing certificate as base64 PEM with the type its flow uses', () => {
    const certs = plan.filter((r) => r.path.includes('/config/certificate/'))
    const builtIn = fake.cloud.builtInCertificates()
    expect(certs).toHaveLength(builtIn.pkcs7.length + builtIn.identity.length)
    for (const request of certs) {
      expect(request.path).toMatch(/^\/v1\/auth\/doppel-abc\/config\/certificate\/\w(([\w-.]+)?\w)?$/)
      const pem = Buffer.from(request.body!.aws_public_cert as string, 'base64').toString()
      expect(() => new X509Certificate(pem)).not.toThrow()
      const type = request.body!.type
      expect(type === 'pkcs7' ? builtIn.pkcs7 : builtIn.identity).toContain(pem)
    }
  })

  it('removes the mount at the end', () => {
    expect(vaultTeardownPlan('doppel-abc')).toEqual([{ method: 'DELETE', path: '/v1/sys/auth/doppel-abc' }])
  })
})

describe('startVaultBridge against a Vault stand-in (doppel serve --profile vault)', () => {
  const standIn = createDoppel({ profile: 'vault' })
  let server: RunningServer
  beforeAll(async () => {
    server = await listen(createDoppelServer(standIn), 0, '127.0.0.1')
  })
  afterAll(() => server.close())

  it('configures a fresh mount that the target accepts, serves STS to real clients, and removes the mount', async () => {
    const bridge = await startVaultBridge({ vaultUrl: server.url, token: 'root', listen: '127.0.0.1:0' })
    try {
      const read = await standIn.fetch(`http://x/v1/auth/${bridge.mount}/config/client`, { headers: { 'X-Vault-Token': 'root' } })
      expect(read.status).toBe(200)
      expect((await read.json()).data).toMatchObject({ sts_endpoint: bridge.cloudUrl, endpoint: bridge.cloudUrl, iam_endpoint: bridge.cloudUrl })
      const list = await standIn.fetch('http://x/v1/auth/' + bridge.mount + '/config/certificates?list=true', { headers: { 'X-Vault-Token': 'root' } })
      expect((await list.json()).data.keys.length).toBeGreaterThanOrEqual(2)
      const credentials = bridge.doppel.cloud.defaultServiceCredentials()
      const sts = new STSClient({ region: 'us-east-1', endpoint: bridge.cloudUrl, credentials })
      const identity = await sts.send(new GetCallerIdentityCommand({}))
      expect(identity.Account).toBe('123456789012')
    } finally {
      await bridge.close()
    }
    const mounts = await (await standIn.fetch('http://x/v1/sys/auth', { headers: { 'X-Vault-Token': 'root' } })).json()
    expect(Object.keys(mounts.data)).not.toContain(`${bridge.mount}/`)
  })

  it('prepares each further mount the same way, acting as an IAM user of its own', async () => {
    const bridge = await startVaultBridge({ vaultUrl: server.url, token: 'root', listen: '127.0.0.1:0' })
    const keyOf = async (mount: string) =>
      ((await (await standIn.fetch(`http://x/v1/auth/${mount}/config/client`, { headers: { 'X-Vault-Token': 'root' } })).json()) as { data: { access_key: string; endpoint: string } }).data
    try {
      await bridge.prepareMount(`${bridge.mount}-a`)
      await bridge.prepareMount(`${bridge.mount}-b`)
      const [main, a, b] = await Promise.all([keyOf(bridge.mount), keyOf(`${bridge.mount}-a`), keyOf(`${bridge.mount}-b`)])
      // a scenario's rotate-root replaces its own mount's key, never another mount's
      expect(new Set([main.access_key, a.access_key, b.access_key]).size).toBe(3)
      expect(a.endpoint).toBe(bridge.cloudUrl)
    } finally {
      for (const mount of [`${bridge.mount}-a`, `${bridge.mount}-b`]) await standIn.fetch(`http://x/v1/sys/auth/${mount}`, { method: 'DELETE', headers: { 'X-Vault-Token': 'root' } })
      await bridge.close()
    }
  })

  it('fails clearly when the target refuses the token', async () => {
    await expect(startVaultBridge({ vaultUrl: server.url, token: 'wrong', listen: '127.0.0.1:0' })).rejects.toThrow(/Failed to configure the target: POST \/v1\/sys\/auth\/.* answered 403/)
  })

  it('doppel conformance --fake-cloud-listen needs a URL target', async () => {
    let err = ''
    const code = await main(['conformance', '--fake-cloud-listen', '127.0.0.1:0'], { stdout: () => undefined, stderr: (s) => (err += s), cwd: process.cwd() })
    expect(code).toBe(1)
    expect(err).toContain('--fake-cloud-listen needs --target <url>')
  })
})
