import { seedRegistry } from '../../src/services/registry/index.ts'
import { signedCallerIdentity } from '../../src/faces/scenario/index.ts'
import type { Instance, Principal } from '../../src/services/fake-cloud/index.ts'
import { BASE, createEc2Role, loginWorld, type LoginWorld } from '../cloud-auth/login-setup.ts'
import { createVersion } from '../registry/registry-client.ts'

/** The set-up the robustness tests act on: every kind of record of both services and the fake cloud. */
export interface RobustWorld extends LoginWorld {
  instance: Instance
  alice: Principal
  /** A valid pkcs7 identity document of `instance`. */
  pkcs7: string
  /** A role tag of role `tagged`, deny-listed. */
  deniedTag: string
  /** The archivist object of a version created but not uploaded yet. */
  uploadObject: string
  /** A valid iam login payload for alice. */
  iamLogin(): Record<string, string>
}

export const ACCOUNT = '123456789012'
/** An account with a cross-account role configured (not the instance's: its logins stay direct). */
export const STS_ACCOUNT = '210987654321'

/** A world with a role, a certificate, an sts role, an access-list entry, a deny-listed tag, modules and a pending upload. */
export async function robustWorld(): Promise<RobustWorld> {
  const world = loginWorld()
  const { cloud, doppel } = world
  const instance = cloud.createInstance({ iam_role_name: 'web-app', account_id: ACCOUNT })
  const alice = cloud.createPrincipal({ type: 'user', name: 'alice', account_id: ACCOUNT })
  cloud.defaultServiceCredentials()
  const pkcs7 = cloud.identityDocument(instance.instance_id, 'rsa2048')
  const must = async (what: string, reply: Promise<{ status: number; body: any }>) => {
    const answer = await reply
    if (answer.status >= 300) throw new Error(`set-up ${what} answered ${answer.status}: ${JSON.stringify(answer.body)}`)
    return answer
  }
  await createEc2Role(world, 'web-role', instance)
  await must('iam role', world.api('POST', 'role/alice-role', { auth_type: 'iam', bound_iam_principal_arn: alice.arn }))
  await must('tagged role', world.api('POST', 'role/tagged', { auth_type: 'ec2', bound_ami_id: instance.ami_id, role_tag: 'VaultRole', policies: 'p' }))
  const deniedTag = (await must('role tag', world.api('POST', 'role/tagged/tag', { policies: 'p' }))).body.data.tag_value as string
  await must('deny list', world.api('POST', `roletag-denylist/${encodeURIComponent(deniedTag)}`))
  const certificate = cloud.builtInCertificates().pkcs7[0]!
  await must('certificate', world.api('POST', 'config/certificate/c1', { aws_public_cert: certificate, type: 'pkcs7' }))
  await must('sts', world.api('POST', `config/sts/${STS_ACCOUNT}`, { sts_role: `arn:aws:iam::${STS_ACCOUNT}:role/assumed` }))
  await must('identity config', world.api('POST', 'config/identity', { iam_alias: 'unique_id' }))
  await must('tidy config', world.api('POST', 'config/tidy/identity-accesslist', { safety_buffer: '48h' }))
  await must('ec2 login', world.login({ role: 'web-role', pkcs7, nonce: 'set-up-nonce' }))
  // The mount table is built on first use: read it now so the snapshot taken after set-up already holds it.
  await doppel.fetch(`${BASE}/v1/sys/auth`, { headers: { 'X-Service-Token': 'root' } })

  seedRegistry(doppel, { modules: [{ organization: 'acme', name: 'vpc', provider: 'aws', versions: ['1.0.0', '1.1.0'] }] })
  const pending = await createVersion(doppel, 'acme', 'vpc', 'aws', '2.0.0')
  if (pending.status !== 201) throw new Error(`set-up pending version answered ${pending.status}: ${pending.text}`)
  const uploadObject = new URL(pending.body.data.links.upload as string).pathname.split('/').pop()!

  return {
    ...world,
    instance,
    alice,
    pkcs7,
    deniedTag,
    uploadObject,
    iamLogin: () =>
      ({
        role: 'alice-role',
        ...signedCallerIdentity({ credentials: alice, now: doppel.clock.now(), serverIdHeader: 'X-Service-Cloud-IAM-Server-ID' }),
      }) as Record<string, string>,
  }
}
