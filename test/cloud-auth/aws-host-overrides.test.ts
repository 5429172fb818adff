import { describe, expect, it } from 'vitest'
import { aws4LoginData, createEc2Role, loginWorld, type LoginWorld } from './login-setup.ts'

// Endpoint overrides that name real AWS host names are answered in process, as those hosts would answer
// (docs/decisions/endpoint-overrides.md, docs/reference/fake-cloud.md §1.1): a regional EC2 endpoint knows only its
// region's instances, a China-partition IAM knows no `aws` key, and STS at a regional endpoint refuses a
// call signed for another region.

const REQUEST_ID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}'

async function ec2Login(world: LoginWorld, client: Record<string, unknown>) {
  const instance = world.cloud.createInstance({ region: 'us-east-1' })
  await createEc2Role(world, 'web', instance)
  expect((await world.api('POST', 'config/client', client)).status).toBe(204)
  return { instance, reply: await world.login({ role: 'web', pkcs7: world.cloud.identityDocument(instance.instance_id, 'rsa2048') }) }
}

describe('endpoint overrides naming AWS host names', () => {
  it("an EC2 endpoint of another region does not know the instance (InvalidInstanceID.NotFound); its own region's does", async () => {
    const { instance, reply } = await ec2Login(loginWorld(), { endpoint: 'https://ec2.us-west-2.amazonaws.com' })
    const id = instance.instance_id
    expect(reply.status).toBe(400)
    expect(reply.body.errors[0]).toMatch(
      new RegExp(`^failed to verify instance ID: error fetching description for instance ID "${id}": InvalidInstanceID.NotFound: The instance ID '${id}' does not exist\n\tstatus code: 400, request id: ${REQUEST_ID}$`),
    )
    for (const endpoint of ['https://ec2.us-east-1.amazonaws.com', 'https://ec2.amazonaws.com']) {
      expect((await ec2Login(loginWorld(), { endpoint })).reply.status).toBe(200)
    }
  })

  it('a China-partition IAM endpoint does not know an aws user: the wildcard lookup at iam login and rotate-root fail', async () => {
    const world = loginWorld()
    const alice = world.cloud.createPrincipal({ type: 'user', name: 'alice' })
    const bound = `arn:aws:iam::${alice.account_id}:user/*`
    expect((await world.api('POST', 'role/dev', { auth_type: 'iam', bound_iam_principal_arn: bound })).status).toBe(204)
    expect((await world.api('POST', 'config/client', { iam_endpoint: 'https://iam.cn-north-1.amazonaws.com.cn' })).status).toBe(204)
    const login = await world.login({ role: 'dev', ...aws4LoginData(world, alice) })
    expect(login.status).toBe(400)
    expect(login.body.errors[0]).toMatch(
      new RegExp(`^error looking up full ARN of entity .+ when attempting login for role "dev": error fetching user "alice": InvalidClientTokenId: The security token included in the request is invalid\\.\n\tstatus code: 403, request id: ${REQUEST_ID}$`),
    )
    const bob = world.cloud.createPrincipal({ type: 'user', name: 'bob' })
    const china = { access_key: bob.access_key_id, secret_key: bob.secret_access_key, iam_endpoint: 'https://iam.cn-north-1.amazonaws.com.cn' }
    expect((await world.api('POST', 'config/client', china)).status).toBe(204)
    const rotate = await world.api('POST', 'config/rotate-root')
    expect(rotate.status).toBe(400)
    expect(rotate.body.errors[0]).toMatch(/^error calling GetUser: InvalidClientTokenId: The security token included in the request is invalid\./)

    expect((await world.api('POST', 'config/client', { iam_endpoint: 'https://iam.amazonaws.com' })).status).toBe(204)
    expect((await world.login({ role: 'dev', ...aws4LoginData(world, alice) })).status).toBe(200)
  })

  it("an STS endpoint of another region refuses the service's own call signed for us-east-1, until sts_region matches it", async () => {
    const { reply } = await ec2Login(loginWorld(), { sts_endpoint: 'https://sts.eu-west-1.amazonaws.com' })
    expect(reply.status).toBe(400)
    expect(reply.body.errors[0]).toMatch(
      new RegExp(
        `^failed to verify instance ID: unable to fetch current caller: SignatureDoesNotMatch: Credential should be scoped to a valid region, not 'us-east-1'\\. \n\tstatus code: 403, request id: ${REQUEST_ID}$`,
      ),
    )
    const matching = await ec2Login(loginWorld(), { sts_endpoint: 'https://sts.eu-west-1.amazonaws.com', sts_region: 'eu-west-1' })
    expect(matching.reply.status).toBe(200)
  })
})
