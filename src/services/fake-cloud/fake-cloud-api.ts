import type { Emulator } from '../../core/emulator.ts'
import { asEc2Error } from './cloud-errors.ts'
import { selectInstance, signDocument } from './cloud-control.ts'
import { cloudState, type CloudState, type InstanceProfileRecord, type InstanceRecord, type PrincipalRecord } from './cloud-state.ts'
import { describeInstances } from './ec2/describe-instances.ts'
import { privateHostname } from './ec2/ec2-xml.ts'
import { INSTANCE_STATE_CODES } from './ec2/instance-state-codes.ts'
import {
  CloudError,
  type AssumedRoleCredentials,
  type AssumeRoleInput,
  type AwsCredentials,
  type CallerIdentity,
  type DescribedInstance,
  type FakeCloudApi,
  type IamEntity,
  type IdentityFormat,
  type Instance,
  type InstanceInput,
  type InstanceState,
  type MetadataOptions,
  type NewAccessKey,
  type Principal,
  type PrincipalInput,
} from './glossary.ts'
import { createAccessKey, deleteAccessKey, getInstanceProfile, getRole, getUser } from './iam/iam-operations.ts'
import { builtInCertificates } from './identity/issue-document.ts'
import { consistencySettings, setConsistency } from './iam/key-propagation.ts'
import { closeListeners, startImdsListener } from './imds/imds-listener.ts'
import { createInstance, createPrincipal, deletePrincipal, modifyInstanceMetadataOptions, setInstanceState, toInstance } from './inventory.ts'
import { authenticate, defaultServiceKey } from './principals.ts'
import { assumeRole, getCallerIdentity } from './sts/sts-operations.ts'

/** The path prefix of STS on doppel's own listeners; a replayed request may carry it once or twice. */
export const STS_MOUNT = ['_doppel', 'cloud', 'sts']

/**
 * The fake cloud's direct face for this emulator: the same operations as the HTTP API, called in process.
 * Provider calls authenticate `credentials` as SigV4 would (unknown key, wrong secret or session token,
 * expired session) and throw `CloudError` exactly as the HTTP API answers.
 *
 * @example
 * const cloud = getFakeCloud(doppel)
 * const instance = cloud.createInstance({ iam_role_name: 'web' })
 * const pkcs7 = cloud.identityDocument(instance.instance_id, 'rsa2048')
 */
/**
 * The Query API's module once imported: code, not state, kept because `import()` of a module already
 * loaded still costs tens of microseconds a call, and every iam login makes one.
 */
let queryApi: Promise<typeof import('./query-api.ts')> | undefined

export function getFakeCloud(emulator: Emulator): FakeCloudApi {
  return new DirectFace(emulator)
}

/**
 * Methods on the prototype, so that a login's provider calls make one small object, not a closure per
 * method. The state is resolved on every call: a reset replaces the domain state.
 */
class DirectFace implements FakeCloudApi {
  readonly #emulator: Emulator
  constructor(emulator: Emulator) {
    this.#emulator = emulator
  }

  get #state(): CloudState {
    return cloudState(this.#emulator)
  }

  // Set-up
  createInstance(input?: InstanceInput): Instance {
    return toInstance(createInstance(this.#state, input ?? {}))
  }
  getInstance(instanceId: string): Instance | undefined {
    const record = this.#state.instances.get(instanceId)
    return record === undefined ? undefined : toInstance(record)
  }
  setInstanceState(instanceId: string, next: InstanceState): Instance {
    return toInstance(setInstanceState(this.#state, instanceId, next))
  }
  modifyInstanceMetadataOptions(instanceId: string, options: MetadataOptions): Instance {
    return toInstance(modifyInstanceMetadataOptions(this.#state, instanceId, options))
  }
  createPrincipal(input: PrincipalInput): Principal {
    return createPrincipal(this.#state, input)
  }
  deletePrincipal(arnOrName: string): boolean {
    return deletePrincipal(this.#state, arnOrName)
  }
  defaultServiceCredentials(): AwsCredentials {
    const key = defaultServiceKey(this.#state)
    return { accessKeyId: key.access_key_id, secretAccessKey: key.secret_access_key }
  }
  useInstance(instanceId: string): void {
    selectInstance(this.#state, instanceId)
  }
  identityDocument(instanceId: string, format: IdentityFormat): string {
    return signDocument(this.#state, instanceId, format)
  }
  builtInCertificates(): { pkcs7: string[]; identity: string[] } {
    return builtInCertificates()
  }
  consistency(): { key_propagation_seconds: number } {
    return consistencySettings(this.#state)
  }
  setConsistency(settings: { key_propagation_seconds: number }): { key_propagation_seconds: number } {
    return setConsistency(this.#state, settings)
  }

  // Provider calls, acting as `credentials`
  getCallerIdentity(credentials: AwsCredentials): CallerIdentity {
    return getCallerIdentity(authenticate(this.#state, credentials))
  }
  assumeRole(credentials: AwsCredentials, input: AssumeRoleInput): AssumedRoleCredentials {
    const state = this.#state
    return assumeRole(state, authenticate(state, credentials), {
      roleArn: input.roleArn,
      roleSessionName: input.sessionName,
      durationSeconds: input.durationSeconds,
      externalId: input.externalId,
    })
  }
  describeInstance(credentials: AwsCredentials, region: string, instanceId: string): DescribedInstance {
    const state = this.#state
    try {
      const caller = authenticate(state, credentials)
      const { instances } = describeInstances(state, caller, region, { instanceIds: [instanceId], filters: [] })
      return described(instances[0]!)
    } catch (error) {
      throw error instanceof CloudError ? asEc2Error(error) : error
    }
  }
  getInstanceProfile(credentials: AwsCredentials, name: string): IamEntity {
    const state = this.#state
    const { profile, roles } = getInstanceProfile(state, authenticate(state, credentials), name)
    return profileEntity(profile, roles)
  }
  getUser(credentials: AwsCredentials, name?: string): IamEntity {
    const state = this.#state
    return principalEntity(getUser(state, authenticate(state, credentials), name))
  }
  getRole(credentials: AwsCredentials, name: string): IamEntity {
    const state = this.#state
    return principalEntity(getRole(state, authenticate(state, credentials), name))
  }
  createAccessKey(credentials: AwsCredentials, userName?: string): NewAccessKey {
    const state = this.#state
    const key = createAccessKey(state, authenticate(state, credentials), userName)
    return { accessKeyId: key.access_key_id, secretAccessKey: key.secret_access_key, userName: state.principals.get(key.owner_arn)!.name }
  }
  deleteAccessKey(credentials: AwsCredentials, accessKeyId: string, userName?: string): void {
    const state = this.#state
    deleteAccessKey(state, authenticate(state, credentials), accessKeyId, userName)
  }
  // The Query API (and its SigV4 verifier) loads on the first call, as the service does on its first request.
  async forwardSts(request: Request): Promise<Response> {
    const { serveQueryApi } = await (queryApi ??= import('./query-api.ts'))
    return serveQueryApi(this.#state, 'sts', request, STS_MOUNT)
  }

  // Listeners
  startImdsListener(instanceId: string): Promise<{ endpoint: string }> {
    return startImdsListener(this.#state, instanceId)
  }
  close(): Promise<void> {
    return closeListeners(this.#state)
  }
}

/** What DescribeInstances tells of an instance; `launchTime` is its pending_time, RFC 3339 to the second. */
function described(instance: InstanceRecord): DescribedInstance {
  return {
    instanceId: instance.instance_id,
    imageId: instance.ami_id,
    subnetId: instance.subnet_id,
    vpcId: instance.vpc_id,
    state: { code: INSTANCE_STATE_CODES[instance.state], name: instance.state },
    launchTime: instance.pending_time,
    privateDnsName: privateHostname(instance),
    iamInstanceProfile:
      instance.instance_profile_arn === null ? undefined : { arn: instance.instance_profile_arn, id: instance.instance_profile_id! },
    tags: Object.entries(instance.tags).map(([key, value]) => ({ key, value })),
    ownerId: instance.account_id,
  }
}

function principalEntity(record: PrincipalRecord): IamEntity {
  return { arn: record.arn, id: record.unique_id, name: record.name, path: record.path }
}

function profileEntity(profile: InstanceProfileRecord, roles: PrincipalRecord[]): IamEntity {
  return {
    arn: profile.arn,
    id: profile.unique_id,
    name: profile.name,
    path: profile.path,
    roles: roles.map((role) => ({ arn: role.arn, id: role.unique_id, name: role.name })),
  }
}
