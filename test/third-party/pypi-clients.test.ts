// Today's hvac and boto3/botocore from the Python registry (.venv-clients, pinned in python/requirements.txt)
// against `doppel serve --profile vault`, over plain HTTP and over --tls: botocore's provider chain takes an
// instance role's credentials from IMDS; boto3 calls STS (GetCallerIdentity, AssumeRole), EC2
// (DescribeInstances, also paginated) and IAM (GetUser, GetRole, GetInstanceProfile); hvac writes, reads, LISTs
// and deletes roles, logs in with the iam and the ec2 method (rsa2048 and pkcs7), looks up and renews its token.
// Over TLS the clients trust doppel's CA as users set them up: AWS_CA_BUNDLE for botocore, VAULT_CACERT for hvac.
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { pythonModulesPresent, VENV_HINT, VENV_PYTHON } from './python-modules.ts'
import { bareEnvironment, setUpCloud, stopGently, type CloudSetup } from './cloud-setup.ts'
import { startServe, type ServeProcess } from '../server/serve-process.ts'

const APP = new URL('./python/pypi_clients.py', import.meta.url).pathname
const present = pythonModulesPresent(['hvac', 'boto3'], VENV_PYTHON)
if (!present) console.warn(`PyPI client test skipped: ${VENV_PYTHON} is missing (${VENV_HINT})`)

for (const transport of ['http', 'tls'] as const) {
  describe.skipIf(!present)(`hvac and boto3 from the Python registry against doppel serve --profile vault over ${transport}`, () => {
    let serve: ServeProcess
    let env: Record<string, string>
    let instance: CloudSetup['instance']

    beforeAll(async () => {
      serve = await startServe(transport === 'tls' ? ['--tls', '--profile', 'vault'] : ['--profile', 'vault'])
      const cloud = await setUpCloud(serve, 'pypi')
      instance = cloud.instance
      env = {
        ...bareEnvironment(),
        VAULT_ADDR: serve.url,
        AWS_EC2_METADATA_SERVICE_ENDPOINT: cloud.imds,
        INSTANCE_ID: instance.instance_id,
        OTHER_ROLE_ARN: cloud.otherRoleArn,
        USER_NAME: cloud.userName,
        ...(cloud.ca !== undefined && { VAULT_CACERT: cloud.ca, AWS_CA_BUNDLE: cloud.ca }),
      }
    })
    afterAll(() => stopGently(serve))

    it('botocore, boto3 and hvac do what an application on an instance does, with the answers AWS and Vault give', { timeout: 90_000 }, async () => {
      const { stdout } = await promisify(execFile)(VENV_PYTHON, [APP], { env, timeout: 80_000 })
      const result = JSON.parse(stdout)
      const account = instance.account_id
      const policies = ['default', 'reader']
      expect(result).toEqual({
        versions: { hvac: expect.stringMatching(/^2\./), boto3: expect.any(String), botocore: expect.any(String) },
        credential_method: 'iam-role',
        region: 'eu-central-1',
        caller_arn: `arn:aws:sts::${account}:assumed-role/pypi-app/${instance.instance_id}`,
        assumed_arn: `arn:aws:sts::${account}:assumed-role/pypi-other/pypi-clients`,
        assumed_caller_arn: `arn:aws:sts::${account}:assumed-role/pypi-other/pypi-clients`,
        instance: { id: instance.instance_id, state: 'running', profile_arn: `arn:aws:iam::${account}:instance-profile/pypi-app` },
        paginated_ids: [instance.instance_id],
        missing_instance: 'InvalidInstanceID.NotFound',
        user_arn: `arn:aws:iam::${account}:user/pypi-alice`,
        role_arn: instance.iam_role_arn,
        profile_roles: ['pypi-app'],
        missing_role: 'NoSuchEntity',
        initialized: true,
        sealed: false,
        read_role: { auth_type: 'iam', policies: ['reader'], bound: [instance.iam_role_arn] },
        roles: ['pypi-ec2', 'pypi-iam'],
        tuning: { default: 1800, max: 7200 },
        iam_login: { policies, auth_type: 'iam', lease_duration: 1800 },
        ec2_login_rsa2048: { policies, metadata: { account_id: account, auth_type: 'ec2', role: 'pypi-ec2', role_tag_max_ttl: '0s' } },
        ec2_login_pkcs7: { policies, metadata: { account_id: account, auth_type: 'ec2', role: 'pypi-ec2', role_tag_max_ttl: '0s' } },
        lookup: { policies, renewable: true },
        renewed: { lease_duration: 3600, same_token: true },
        named: { same_token: true, accessor_id: '', renewed: 1800, revoked: true },
        bad_secret: expect.stringMatching(/^error making upstream request: received error code 403 from STS: .*<Code>SignatureDoesNotMatch<\/Code>/s),
      })
    })

    if (transport === 'tls') it('botocore refuses the server without AWS_CA_BUNDLE', { timeout: 60_000 }, async () => {
      const { AWS_CA_BUNDLE: _, ...untrusting } = env
      const failure = await promisify(execFile)(VENV_PYTHON, [APP], { env: untrusting, timeout: 50_000 }).then(
        () => 'ran',
        (error: { stderr: string }) => error.stderr,
      )
      expect(failure).toMatch(/SSLError.*CERTIFICATE_VERIFY_FAILED/s)
    })
  })
}
