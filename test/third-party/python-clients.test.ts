// Unmodified Python clients against `doppel serve --profile vault`: botocore reads the region and the role's
// credentials from a fake IMDS listener, boto3 calls the fake STS, and hvac logs in with the iam and the ec2
// method, as an application on an instance would. Both generations in use run the same application: Debian's
// python3-hvac (0.11) and python3-boto3, and today's hvac and boto3 from the Python registry (.venv-clients).
import { execFile, spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PYTHON, pythonModulesPresent, VENV_HINT, VENV_PYTHON } from './python-modules.ts'

const BIN = new URL('../../bin/doppel.js', import.meta.url).pathname
const APP = new URL('./python/instance_app.py', import.meta.url).pathname
const GENERATIONS = [
  { name: "Debian's hvac and boto3", python: PYTHON, hint: 'apt-get install python3-hvac python3-boto3' },
  { name: 'hvac and boto3 from the Python registry', python: VENV_PYTHON, hint: VENV_HINT },
]

interface AppResult {
  region?: string
  caller_arn?: string
  auth?: { client_token: string; metadata: Record<string, string>; policies: string[] }
  failed?: string
  errors?: string[]
}

for (const { name, python, hint } of GENERATIONS) {
  const present = pythonModulesPresent(['hvac', 'boto3'], python)
  if (!present) console.warn(`python client test skipped: ${python} lacks hvac/boto3 (${hint})`)

  describe.skipIf(!present)(`python ${name} on a fake instance, against doppel serve --profile vault`, () => {
    let server: ChildProcess
    let url: string
    let instance: { instance_id: string; account_id: string; ami_id: string; region: string }
    let imds: string
    const root = { 'X-Vault-Token': 'root', 'Content-Type': 'application/json' }

    beforeAll(async () => {
      server = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--profile', 'vault', '--quiet'], {
        stdio: ['ignore', 'pipe', 'inherit'],
      })
      const [line] = (await once(server.stdout!, 'data')) as [Buffer]
      url = /listening on (\S+)/.exec(line.toString())![1]!
      const created = await fetch(`${url}/_doppel/cloud/instances`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ region: 'eu-central-1', iam_role_name: 'python-app' }),
      })
      expect(created.status).toBe(201)
      instance = await created.json()
      const listener = await fetch(`${url}/_doppel/cloud/instances/${instance.instance_id}/imds`, { method: 'POST' })
      imds = ((await listener.json()) as { endpoint: string }).endpoint
    })
    afterAll(async () => {
      server?.kill('SIGTERM')
      if (server) await once(server, 'exit')
    })

    async function writeRole(name: string, body: Record<string, unknown>) {
      const response = await fetch(`${url}/v1/auth/aws/role/${name}`, { method: 'POST', headers: root, body: JSON.stringify(body) })
      expect(response.status).toBe(204)
    }

    const runApp = (command: string, role: string): Promise<AppResult> =>
      promisify(execFile)(python, [APP, command], {
        env: {
          PATH: process.env.PATH ?? '',
          HOME: '/nonexistent',
          DOPPEL_URL: url,
          ROLE: role,
          AWS_EC2_METADATA_SERVICE_ENDPOINT: imds,
          AWS_CONFIG_FILE: '/nonexistent/config',
          AWS_SHARED_CREDENTIALS_FILE: '/nonexistent/credentials',
        },
        timeout: 60_000,
      }).then(({ stdout }) => JSON.parse(stdout) as AppResult)

    it('botocore takes region and role credentials from IMDS; hvac iam_login gets a token', async () => {
      const roleArn = `arn:aws:iam::${instance.account_id}:role/python-app`
      await writeRole('python-iam', { auth_type: 'iam', bound_iam_principal_arn: roleArn, token_policies: 'reader' })
      const result = await runApp('iam-login', 'python-iam')
      expect(result.region).toBe('eu-central-1')
      expect(result.caller_arn).toMatch(new RegExp(`^arn:aws:sts::${instance.account_id}:assumed-role/python-app/`))
      expect(result.errors).toBeUndefined()
      expect(result.auth!.policies).toEqual(['default', 'reader'])
      expect(result.auth!.metadata).toMatchObject({ auth_type: 'iam', account_id: instance.account_id })
      const lookup = await fetch(`${url}/v1/auth/token/lookup-self`, { headers: { 'X-Vault-Token': result.auth!.client_token } })
      expect(lookup.status).toBe(200)
    })

    it('a request signed for eu-west-1 but sent to the global STS endpoint is refused as AWS refuses it', async () => {
      const roleArn = `arn:aws:iam::${instance.account_id}:role/python-app`
      await writeRole('python-scope', { auth_type: 'iam', bound_iam_principal_arn: roleArn })
      const result = await runApp('iam-login-scoped-eu-west-1', 'python-scope')
      expect(result.auth).toBeUndefined()
      expect(result.failed).toBe('InvalidRequest')
      expect(result.errors![0]).toMatch(/^error making upstream request: received error code 403 from STS: .*SignatureDoesNotMatch/s)
      expect(result.errors![0]).toContain("Credential should be scoped to a valid region")
    })

    it('hvac ec2_login with the rsa2048 document read from IMDS (v2 token) gets a token', async () => {
      await writeRole('python-ec2', { auth_type: 'ec2', bound_ami_id: instance.ami_id, token_policies: 'reader' })
      const result = await runApp('ec2-login-rsa2048', 'python-ec2')
      expect(result.errors).toBeUndefined()
      // A client-chosen nonce is not echoed; the default identity metadata holds only the account (docs/reference/cloud-auth.md §6).
      expect(result.auth!.metadata).toEqual({ role_tag_max_ttl: '0s', role: 'python-ec2', account_id: instance.account_id, auth_type: 'ec2' })
      expect(result.auth!.policies).toEqual(['default', 'reader'])
    })

    it('hvac ec2_login with the DSA-SHA1 pkcs7 document gets a token, as Vault\'s own DSA check accepts it (docs/decisions/vault-profile-sha1.md)', async () => {
      await writeRole('python-ec2-pkcs7', { auth_type: 'ec2', bound_ami_id: instance.ami_id })
      const result = await runApp('ec2-login-pkcs7', 'python-ec2-pkcs7')
      expect(result.errors).toBeUndefined()
      expect(result.auth!.metadata).toMatchObject({ role: 'python-ec2-pkcs7', auth_type: 'ec2', account_id: instance.account_id })
    })
  })
}
