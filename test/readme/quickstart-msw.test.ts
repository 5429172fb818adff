// The README's first quickstart, run as written: unmodified fetch code against MSW handlers.
import { setupServer } from 'msw/node'
import { afterAll, afterEach, beforeAll, expect, test } from 'vitest'
import { createDoppel } from '../../src/index.ts'
import { createHandlers } from '../../src/msw/index.ts'

// Application code under test: reads its identity from the instance metadata service and logs in.
async function loginFromInstance(vaultAddr: string, role: string): Promise<string> {
  const token = await (await fetch('http://169.254.169.254/latest/api/token', {
    method: 'PUT',
    headers: { 'X-aws-ec2-metadata-token-ttl-seconds': '60' },
  })).text()
  const pkcs7 = await (await fetch('http://169.254.169.254/latest/dynamic/instance-identity/rsa2048', {
    headers: { 'X-aws-ec2-metadata-token': token },
  })).text()
  const res = await fetch(`${vaultAddr}/v1/auth/cloud/login`, {
    method: 'POST',
    body: JSON.stringify({ role, pkcs7: pkcs7.replaceAll('\n', ''), nonce: 'my-nonce' }),
  })
  if (!res.ok) throw new Error(`login failed: ${res.status} ${await res.text()}`)
  return (await res.json()).auth.client_token
}

const doppel = createDoppel({ seed: 1 })
const server = setupServer(...createHandlers(doppel, { baseUrl: 'http://vault.test' }))
beforeAll(() => server.listen())
afterEach(() => doppel.reset())
afterAll(() => server.close())

test('my service logs in with its instance identity', async () => {
  const instance = doppel.cloud.createInstance({ ami_id: 'ami-0abc1234' })
  doppel.cloud.useInstance(instance.instance_id)
  const created = await fetch('http://vault.test/v1/auth/cloud/role/web', {
    method: 'POST',
    headers: { 'X-Service-Token': 'root' },
    body: JSON.stringify({ auth_type: 'ec2', bound_ami_id: 'ami-0abc1234' }),
  })
  expect(created.status).toBe(204)
  const token = await loginFromInstance('http://vault.test', 'web')
  expect(token).toMatch(/^hvs\./)
})

test('a stopped instance cannot log in', async () => {
  const instance = doppel.cloud.createInstance({ ami_id: 'ami-0abc1234' })
  doppel.cloud.useInstance(instance.instance_id)
  doppel.cloud.setInstanceState(instance.instance_id, 'stopped')
  await fetch('http://vault.test/v1/auth/cloud/role/web', {
    method: 'POST',
    headers: { 'X-Service-Token': 'root' },
    body: JSON.stringify({ auth_type: 'ec2', bound_ami_id: 'ami-0abc1234' }),
  })
  await expect(loginFromInstance('http://vault.test', 'web')).rejects.toThrow(
    "login failed: 400 {\"errors\":[\"failed to verify instance ID: instance is not in 'running' state\"]}",
  )
})
