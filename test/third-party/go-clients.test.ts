// Go clients from the Go module proxy (go/go.mod, go.sum) against `doppel serve --profile vault`, over plain
// HTTP and over --tls: Vault's own client with its AWS login helper (github.com/hashicorp/vault/api/auth/aws),
// unmodified — the ec2 login with each document it offers and the iam login, then token creation through its
// token API — and aws-sdk-go-v2 (config's IMDS credentials, feature/ec2/imds, sts, ec2, iam) against the fake
// cloud. Over TLS they trust doppel's CA as users set them up: VAULT_CACERT for Vault's client, AWS_CA_BUNDLE
// for the SDK. The modules come from the Go module cache (.ci/run downloads them and warms the build cache);
// the test itself asks no proxy.
import { execFile, execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bareEnvironment, setUpCloud, stopGently, type CloudSetup } from './cloud-setup.ts'
import { startServe, type ServeProcess } from '../server/serve-process.ts'
import { tempDir } from '../support/temp-dir.ts'

const MODULE = new URL('./go/', import.meta.url).pathname
const GO = existsSync('/usr/local/go/bin/go') ? '/usr/local/go/bin/go' : 'go'
/** The module cache and build cache are the machine's, where .ci/run filled them; nothing is fetched. */
const GO_ENV = { ...process.env, GOPROXY: 'off', GOFLAGS: '-mod=readonly -buildvcs=false', GOTOOLCHAIN: 'local' }
const present = process.env.CI === 'true' || modulesCached()
if (!present) console.warn(`Go client test skipped: no Go 1.24+ with the modules of ${MODULE}go.mod cached (cd test/third-party/go && go mod download)`)

function modulesCached(): boolean {
  try {
    execFileSync(GO, ['list', '-deps', './vaultlogin', './sdkv2'], { cwd: MODULE, env: GO_ENV, stdio: 'ignore', timeout: 60_000 })
    return true
  } catch {
    return false
  }
}

const run = (binary: string, env: Record<string, string>) =>
  promisify(execFile)(binary, [], { env, timeout: 60_000 }).then(
    ({ stdout }) => JSON.parse(stdout),
    (error: { stderr: string }) => ({ failed: error.stderr }),
  )

describe.skipIf(!present)('Go clients from the module proxy', () => {
  const bin = tempDir('go-clients')
  beforeAll(async () => {
    // A cold build cache compiles the EC2 client for minutes; .ci/run has built it once already.
    await promisify(execFile)(GO, ['build', '-o', bin, './vaultlogin', './sdkv2'], { cwd: MODULE, env: GO_ENV, timeout: 590_000 })
  }, 600_000)

  for (const transport of ['http', 'tls'] as const) {
    describe(`against doppel serve --profile vault over ${transport}`, () => {
      let serve: ServeProcess
      let cloud: CloudSetup
      let env: Record<string, string>

      beforeAll(async () => {
        serve = await startServe(transport === 'tls' ? ['--tls', '--profile', 'vault'] : ['--profile', 'vault'])
        cloud = await setUpCloud(serve, 'go')
        env = {
          ...bareEnvironment(),
          VAULT_ADDR: serve.url,
          AWS_EC2_METADATA_SERVICE_ENDPOINT: cloud.imds,
          ...(cloud.ca !== undefined && { VAULT_CACERT: cloud.ca, AWS_CA_BUNDLE: cloud.ca }),
        }
      })
      afterAll(() => stopGently(serve))

      it("Vault's AWS login helper logs in with pkcs7, identity and rsa2048 documents and with the iam method", async () => {
        const result = await run(`${bin}/vaultlogin`, { ...env, ROLE_ARN: cloud.instance.iam_role_arn })
        const account = cloud.instance.account_id
        const ec2 = { policies: ['default', 'reader'], metadata: { account_id: account, auth_type: 'ec2', role: 'go-ec2', role_tag_max_ttl: '0s' } }
        expect(result).toEqual({
          ec2_pkcs7: ec2,
          ec2_identity: ec2,
          ec2_rsa2048: ec2,
          ec2_other_nonce: { error: expect.stringMatching(/Code: 400\. Errors:\n\n\* client nonce mismatch$/) },
          iam: { policies: ['default', 'reader'], metadata: { account_id: account, auth_type: 'iam', role_id: expect.any(String) } },
          // The helper signs for the global STS endpoint, which takes only requests scoped to us-east-1.
          iam_eu_west_1: { error: expect.stringContaining("<Code>SignatureDoesNotMatch</Code>\n    <Message>Credential should be scoped to a valid region, not 'eu-west-1'. </Message>") },
          token: { lookup_policies: ['default', 'reader'], renewed_same: true, lease_duration: 7200, tls: transport === 'tls' },
          created: {
            policies: ['default', 'reader'],
            lease_duration: 3600,
            orphan: false,
            warnings: ['Policy "reader" does not exist'],
            display_name: 'token-go',
            meta: { app: 'go' },
            orphan_orphan: true,
            denied: true,
            gone: true,
            capabilities: [['read'], ['create', 'delete', 'list', 'read', 'update'], ['deny']],
          },
        })
      })

      it('aws-sdk-go-v2 takes credentials and region from IMDS and calls STS, EC2 and IAM', async () => {
        const { instance } = cloud
        const account = instance.account_id
        const result = await run(`${bin}/sdkv2`, {
          ...env,
          INSTANCE_ID: instance.instance_id,
          OTHER_ROLE_ARN: cloud.otherRoleArn,
          USER_NAME: cloud.userName,
          PROFILE_NAME: instance.iam_role_name,
        })
        expect(result).toEqual({
          region: 'eu-central-1',
          document: { instance_id: instance.instance_id, account_id: account, image_id: instance.ami_id },
          credentials_source: 'EC2RoleProvider',
          can_expire: true,
          caller_arn: `arn:aws:sts::${account}:assumed-role/go-app/${instance.instance_id}`,
          assumed_arn: `arn:aws:sts::${account}:assumed-role/go-other/go-sdk-v2`,
          assumed_caller_arn: `arn:aws:sts::${account}:assumed-role/go-other/go-sdk-v2`,
          bad_role_session_name: 'ValidationError',
          instance: { id: instance.instance_id, image_id: instance.ami_id, state: 'running', profile_arn: `arn:aws:iam::${account}:instance-profile/go-app` },
          paginated_ids: [instance.instance_id],
          missing_instance: 'InvalidInstanceID.NotFound',
          user_arn: `arn:aws:iam::${account}:user/go-alice`,
          role_arn: instance.iam_role_arn,
          profile_roles: ['go-app'],
          missing_role: 'NoSuchEntity',
        })
      })

      if (transport === 'tls') {
        it('both refuse the server without the CA', async () => {
          const { VAULT_CACERT: _vault, AWS_CA_BUNDLE: _aws, ...untrusting } = env
          const sdk = await run(`${bin}/sdkv2`, { ...untrusting, INSTANCE_ID: cloud.instance.instance_id })
          expect(sdk.failed).toMatch(/x509: certificate signed by unknown authority/)
          const vault = await run(`${bin}/vaultlogin`, { ...untrusting, ROLE_ARN: cloud.instance.iam_role_arn })
          expect(vault.failed).toMatch(/x509: certificate signed by unknown authority/)
        })
      }
    })
  }
})
