// Vault's own AWS auth method, on the real server scripts/real-server.sh starts, logs in against doppel's fake
// cloud: the ec2 flow with each kind of signed document and the iam flow signed for POST and for GET. The
// method checks each login with its own AWS SDK calls to the fake STS, EC2 and IAM; every call it made is
// answered 2xx (the fake cloud's journal), and the calls are listed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startVaultBridge, type VaultBridge } from '../../src/faces/conformance/index.ts'
import { signedCallerIdentity } from '../../src/faces/scenario/index.ts'
import { realServer } from './real-server-env.ts'

const server = realServer()

describe.skipIf(!server)('logins through the real method to the fake cloud', () => {
  let bridge: VaultBridge
  const headers = () => ({ 'X-Vault-Token': server!.token, 'Content-Type': 'application/json' })
  const call = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${server!.addr}/v1/auth/${bridge.mount}/${path}`, {
      method,
      headers: headers(),
      ...(body !== undefined && { body: JSON.stringify(body) }),
    })
    const text = await response.text()
    return { status: response.status, body: text === '' ? null : (JSON.parse(text) as Record<string, any>) }
  }
  const firstJournalId = () => (bridge.doppel.journal.entries().at(-1)?.id ?? 0) + 1
  let loginsFrom = 0

  beforeAll(async () => {
    bridge = await startVaultBridge({ vaultUrl: server!.addr, token: server!.token, listen: '127.0.0.1:0' })
    loginsFrom = firstJournalId()
  })
  afterAll(async () => {
    await bridge?.close()
  })

  const ec2Login = async (kind: 'rsa2048' | 'pkcs7' | 'identity') => {
    const instance = bridge.doppel.cloud.createInstance({ region: 'us-east-1' })
    const role = `ec2-${kind}`
    expect((await call('POST', `role/${role}`, { auth_type: 'ec2', bound_ami_id: instance.ami_id, token_policies: 'web' })).status).toBe(204)
    const oneLine = (text: string) => text.replace(/\r?\n/g, '')
    const body =
      kind === 'identity'
        ? {
            role,
            identity: Buffer.from(bridge.doppel.cloud.identityDocument(instance.instance_id, 'document')).toString('base64'),
            signature: oneLine(bridge.doppel.cloud.identityDocument(instance.instance_id, 'signature')),
          }
        : { role, pkcs7: oneLine(bridge.doppel.cloud.identityDocument(instance.instance_id, kind)) }
    const login = await call('POST', 'login', body)
    expect(login.body?.errors).toBeUndefined()
    expect(login.status).toBe(200)
    expect(login.body!.auth.policies).toEqual(['default', 'web'])
    expect(login.body!.auth.metadata).toMatchObject({ auth_type: 'ec2', account_id: instance.account_id, role })
  }

  it('ec2: the rsa2048 PKCS#7 document', () => ec2Login('rsa2048'))
  it('ec2: the pkcs7 (DSA) document', () => ec2Login('pkcs7'))
  it('ec2: the identity document and its signature', () => ec2Login('identity'))

  for (const method of ['POST', 'GET'] as const) {
    it(`iam: GetCallerIdentity signed for ${method}`, async () => {
      const user = bridge.doppel.cloud.createPrincipal({ type: 'user', name: `app-${method.toLowerCase()}` })
      const role = `iam-${method.toLowerCase()}`
      expect((await call('POST', `role/${role}`, { auth_type: 'iam', bound_iam_principal_arn: user.arn, token_policies: 'app' })).status).toBe(204)
      const signed = signedCallerIdentity({ credentials: user, now: new Date(), serverIdHeader: 'X-Vault-AWS-IAM-Server-ID', method })
      const login = await call('POST', 'login', { role, ...signed })
      expect(login.body?.errors).toBeUndefined()
      expect(login.status).toBe(200)
      expect(login.body!.auth.policies).toEqual(['app', 'default'])
      expect(login.body!.auth.metadata).toMatchObject({ auth_type: 'iam', account_id: user.account_id })
      const self = await fetch(`${server!.addr}/v1/auth/token/lookup-self`, { headers: { 'X-Vault-Token': login.body!.auth.client_token } })
      expect(((await self.json()) as { data: { display_name: string } }).data.display_name).toBe(`${bridge.mount}-${user.name}`)
    })
  }

  it("answered every call the method made to the fake cloud with a 2xx, and lists them (action, service)", () => {
    const calls = bridge.doppel.journal
      .entries()
      .filter((entry) => entry.id >= loginsFrom && entry.service === 'fake-cloud' && !entry.internal)
      .map((entry) => ({ ...describeCall(entry.url, entry.request.headers, entry.request.body), status: entry.status }))
    console.log(`the method's calls to the fake cloud:\n${calls.map((c) => `  ${c.status} ${c.service} ${c.action}`).join('\n')}`)
    expect(new Set(calls.map((c) => c.service))).toEqual(new Set(['sts', 'ec2', 'iam']))
    expect(calls.filter((c) => c.status < 200 || c.status > 299)).toEqual([])
  })
})

/** The action (form body or query) and the service (the signature's credential scope) of an AWS API call. */
function describeCall(url: string, headers: Record<string, string>, body: string | undefined): { action: string; service: string } {
  const query = new URL(url).searchParams
  const form = new URLSearchParams(body ?? '')
  const action = form.get('Action') ?? query.get('Action') ?? '?'
  const scope = /Credential=[^/]+\/\d{8}\/[^/]+\/([^/]+)\//.exec(headers.authorization ?? '')?.[1]
  return { action, service: scope ?? query.get('X-Amz-Credential')?.split('/')[3] ?? '?' }
}
