import type { Emulator } from '../../core/emulator.ts'
import { asEc2Error } from './cloud-errors.ts'
import { selectInstance, signDocument } from './cloud-control.ts'
import { cloudState, type CloudState, type InstanceProfileRecord, type InstanceRecord, type PrincipalRecord } from './cloud-state.ts'
import { describeInstances } from './ec2/describe-instances.ts'
import { privateHostname } from './ec2/ec2-xml.ts'
import { INSTANCE_STATE_CODES } from './ec2/instance-state-codes.ts'
import { CloudError, type AwsCredentials, type DescribedInstance, type FakeCloudApi, type IamEntity } from './glossary.ts'
import { createAccessKey, deleteAccessKey, getInstanceProfile, getRole, getUser } from './iam/iam-operations.ts'
import { builtInCertificates } from './identity/issue-document.ts'
import { consistencySettings, setConsistency } from './iam/key-propagation.ts'
import { closeListeners, startImdsListener } from './imds/imds-listener.ts'
import { createInstance, createPrincipal, deletePrincipal, modifyInstanceMetadataOptions, setInstanceState, toInstance } from './inventory.ts'
import { authenticate, defaultServiceKey } from './principals.ts'
import { serveQueryApi } from './query-api.ts'
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
export function getFakeCloud(emulator: Emulator): FakeCloudApi {
  // Resolved on every call: a reset replaces the domain state.
  const state = (): CloudState => cloudState(emulator)
  return {
    createInstance: (input) => toInstance(createInstance(state(), input ?? {})),
    getInstance: (instanceId) => {
      const record = state().instances.get(instanceId)
      return record === undefined ? undefined : toInstance(record)
    },
    setInstanceState: (instanceId, next) => toInstance(setInstanceState(state(), instanceId, next)),
    modifyInstanceMetadataOptions: (instanceId, options) => toInstance(modifyInstanceMetadataOptions(state(), instanceId, options)),
    createPrincipal: (input) => createPrincipal(state(), input),
    deletePrincipal: (arnOrName) => deletePrincipal(state(), arnOrName),
    defaultServiceCredentials: () => {
      const key = defaultServiceKey(state())
      return { accessKeyId: key.access_key_id, secretAccessKey: key.secret_access_key }
    },
    useInstance: (instanceId) => {
      selectInstance(state(), instanceId)
    },

    identityDocument: (instanceId, format) => signDocument(state(), instanceId, format),
    builtInCertificates,

    getCallerIdentity: (credentials) => getCallerIdentity(authenticate(state(), credentials)),
    assumeRole: (credentials, input) =>
      assumeRole(state(), authenticate(state(), credentials), {
        roleArn: input.roleArn,
        roleSessionName: input.sessionName,
        durationSeconds: input.durationSeconds,
        externalId: input.externalId,
      }),
    describeInstance: (credentials, region, instanceId) => {
      const current = state()
      try {
        const caller = authenticate(current, credentials)
        const { instances } = describeInstances(current, caller, region, { instanceIds: [instanceId], filters: [] })
        return described(instances[0]!)
      } catch (error) {
        throw error instanceof CloudError ? asEc2Error(error) : error
      }
    },
    getInstanceProfile: (credentials, name) => {
      const current = state()
      const { profile, roles } = getInstanceProfile(current, authenticate(current, credentials), name)
      return profileEntity(profile, roles)
    },
    getUser: (credentials, name) => principalEntity(getUser(state(), authenticate(state(), credentials), name)),
    getRole: (credentials, name) => principalEntity(getRole(state(), authenticate(state(), credentials), name)),
    createAccessKey: (credentials, userName) => {
      const current = state()
      const key = createAccessKey(current, authenticate(current, credentials), userName)
      return { accessKeyId: key.access_key_id, secretAccessKey: key.secret_access_key, userName: current.principals.get(key.owner_arn)!.name }
    },
    deleteAccessKey: (credentials: AwsCredentials, accessKeyId: string, userName?: string) =>
      deleteAccessKey(state(), authenticate(state(), credentials), accessKeyId, userName),

    consistency: () => consistencySettings(state()),
    setConsistency: (settings) => setConsistency(state(), settings),
    forwardSts: (request) => serveQueryApi(state(), 'sts', request, STS_MOUNT),
    startImdsListener: (instanceId) => startImdsListener(state(), instanceId),
    close: () => closeListeners(state()),
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
