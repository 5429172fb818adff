// The unmodified `vault-auth-aws` npm client (aws4-signed GetCallerIdentity, got, the SDK's default
// credential chain) logs in against `doppel serve --profile vault`.
import { execFile, spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const BIN = new URL('../../bin/doppel.js', import.meta.url).pathname

const CLIENT = `
const VaultAwsAuth = require('vault-auth-aws')
const client = new VaultAwsAuth({ host: '127.0.0.1', port: Number(process.env.PORT), vaultAppName: process.env.ROLE })
client.authenticate().then(
  (result) => process.stdout.write(JSON.stringify(result)),
  (error) => { process.stdout.write(JSON.stringify({ failed: error.message, body: error.body })); process.exitCode = 1 },
)
`

describe('vault-auth-aws against doppel serve --profile vault', () => {
  let server: ChildProcess
  let url: string
  const root = { 'X-Vault-Token': 'root', 'Content-Type': 'application/json' }

  beforeAll(async () => {
    server = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--profile', 'vault', '--quiet'], { stdio: ['ignore', 'pipe', 'inherit'] })
    const [line] = (await once(server.stdout!, 'data')) as [Buffer]
    url = /listening on (\S+)/.exec(line.toString())![1]!
  })
  afterAll(async () => {
    server.kill('SIGTERM')
    await once(server, 'exit')
  })

  async function principalWithRole(name: string) {
    const principal = await (await fetch(`${url}/_doppel/cloud/principals`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ type: 'user', name }) })).json()
    const role = await fetch(`${url}/v1/auth/aws/role/${name}`, {
      method: 'POST',
      headers: root,
      body: JSON.stringify({ auth_type: 'iam', bound_iam_principal_arn: principal.arn, token_policies: 'reader' }),
    })
    expect(role.status).toBe(204)
    return principal as { access_key_id: string; secret_access_key: string; arn: string }
  }

  const runClient = (env: Record<string, string>) =>
    promisify(execFile)(process.execPath, ['-e', CLIENT], {
      env: { PATH: process.env.PATH ?? '', HOME: '/nonexistent', AWS_EC2_METADATA_DISABLED: 'true', ...env },
      cwd: new URL('../..', import.meta.url).pathname,
      timeout: 30_000,
    }).then(
      ({ stdout }) => JSON.parse(stdout),
      (error: { stdout: string }) => JSON.parse(error.stdout),
    )

  it('gets a token with credentials from the environment, as on a Lambda', async () => {
    const principal = await principalWithRole('lambda-fn')
    const result = await runClient({
      PORT: new URL(url).port,
      ROLE: 'lambda-fn',
      AWS_ACCESS_KEY_ID: principal.access_key_id,
      AWS_SECRET_ACCESS_KEY: principal.secret_access_key,
    })
    expect(result.auth).toMatchObject({
      client_token: expect.stringMatching(/^hvs\./),
      policies: ['default', 'reader'],
      token_policies: ['default', 'reader'],
      metadata: { account_id: '123456789012', auth_type: 'iam', role_id: expect.any(String) },
      renewable: true,
      token_type: 'service',
    })
    const lookup = await fetch(`${url}/v1/auth/token/lookup-self`, { headers: { 'X-Vault-Token': result.auth.client_token } })
    expect(lookup.status).toBe(200)
  })

  it('is refused with the service error when the secret is wrong', async () => {
    const principal = await principalWithRole('lambda-bad')
    const result = await runClient({
      PORT: new URL(url).port,
      ROLE: 'lambda-bad',
      AWS_ACCESS_KEY_ID: principal.access_key_id,
      AWS_SECRET_ACCESS_KEY: 'x'.repeat(40),
    })
    expect(result.failed).toContain('400')
    expect(result.body.errors[0]).toMatch(/^error making upstream request: received error code 403 from STS: .*SignatureDoesNotMatch/s)
  })
})
