/**
 * The fake cloud's direct face: what the auth service calls in process (no HTTP round trip), through the
 * same code that serves the provider's HTTP API. Every call acts as the given credentials and fails the
 * way the real provider would (unknown key, expired session, no such entity...).
 */

import type { PolicyDocument } from './iam/policy-document.ts'
import { DoppelError } from '../../core/doppel-error.ts'

export type { PolicyDocument } from './iam/policy-document.ts'

export interface AwsCredentials {
  accessKeyId: string
  secretAccessKey: string
  sessionToken?: string
}

/** A provider error as the SDK would surface it: code, message, HTTP status. */
export class CloudError extends DoppelError<string> {
  override name = 'CloudError'
  readonly status: number
  /** `code` is the provider's own (`NoSuchEntity`), not a `DOPPEL_` one: see core/doppel-error.ts. */
  constructor(code: string, message: string, status: number) {
    super(code, message)
    this.status = status
  }
}

export type InstanceState = 'pending' | 'running' | 'stopping' | 'stopped' | 'shutting-down' | 'terminated'

/** Snake_case, as the control API and fixtures take it; every field optional. */
export interface InstanceInput {
  instance_id?: string
  account_id?: string
  region?: string
  availability_zone?: string
  ami_id?: string
  vpc_id?: string
  subnet_id?: string
  instance_type?: string
  private_ip?: string
  iam_role_name?: string
  state?: InstanceState
  tags?: Record<string, string>
  pending_time?: string
  /** IMDS session rule: `optional` serves IMDSv1 and v2 (the default), `required` only v2. */
  http_tokens?: HttpTokens
  /** Whether IMDS serves the instance's tags under `meta-data/tags/` (EC2's `InstanceMetadataTags`); default `disabled`, as on EC2. */
  instance_metadata_tags?: InstanceMetadataTags
  /** The public IPv4 address; null for none. Default: one is assigned, as in a default VPC's subnets. */
  public_ip?: string | null
  /** Default: `ec2-<ip with dashes>.compute-1.amazonaws.com` in us-east-1, else `….<region>.compute.amazonaws.com`. */
  public_dns_name?: string
  /** The key pair the instance was launched with (IMDS `public-keys/`); null or absent: none, as AWS's default. */
  key_name?: string | null
}

export type HttpTokens = 'optional' | 'required'
export type InstanceMetadataTags = 'enabled' | 'disabled'

/** The instance metadata options a running instance can change (EC2's `ModifyInstanceMetadataOptions`). */
export interface MetadataOptions {
  http_tokens?: HttpTokens
  instance_metadata_tags?: InstanceMetadataTags
}

export interface Instance {
  instance_id: string
  account_id: string
  region: string
  availability_zone: string
  ami_id: string
  vpc_id: string
  subnet_id: string
  instance_type: string
  private_ip: string
  iam_role_name: string | null
  instance_profile_arn: string | null
  iam_role_arn: string | null
  state: InstanceState
  tags: Record<string, string>
  /** RFC 3339, seconds precision, `Z`; equals DescribeInstances' launchTime; moves on stop/start. */
  pending_time: string
  instance_profile_id?: string | null
  http_tokens?: HttpTokens
  instance_metadata_tags?: InstanceMetadataTags
  /** Kept across a stop and start, as an Elastic IP; DescribeInstances shows it only while the instance runs. */
  public_ip?: string | null
  public_dns_name?: string | null
  key_name?: string | null
}

export interface PrincipalInput {
  type: 'user' | 'role'
  name?: string
  account_id?: string
  path?: string
  /** Roles: the session name of the credentials returned. Default `doppel-session`. */
  session_name?: string
  /** Roles: MaxSessionDuration in seconds (3600..43200). Default 3600, as AWS. */
  max_session_duration?: number
  /** Identity policies (opt-in): without them the principal may do anything. */
  policies?: PolicyDocument[]
  /** Roles: a trust policy (opt-in): without it any principal may assume the role. */
  trust_policy?: PolicyDocument
}

export interface Principal {
  type: 'user' | 'role'
  name: string
  account_id: string
  path: string
  arn: string
  unique_id: string
  /** Long-term keys for users; for roles, credentials of a fresh assumed-role session. */
  access_key_id: string
  secret_access_key: string
  session_token?: string
}

export type IdentityFormat = 'document' | 'signature' | 'pkcs7' | 'rsa2048' | 'dsa2048'

export interface DescribedInstance {
  instanceId: string
  imageId: string | undefined
  subnetId: string | undefined
  vpcId: string | undefined
  state: { code: number; name: string }
  launchTime: string
  /** The private DNS name (the iam login's inferred_hostname). */
  privateDnsName: string
  /** `arn` is undefined where a remote EC2 answer leaves it out (the fake cloud's profiles always have one). */
  iamInstanceProfile: { arn: string | undefined; id: string } | undefined
  tags: { key: string; value: string }[]
  ownerId: string
}

export interface IamEntity {
  arn: string
  /** UserId / RoleId / InstanceProfileId */
  id: string
  name: string
  path: string
  /** For instance profiles: the roles in it. */
  roles?: { arn: string; id: string; name: string }[]
}

export interface CallerIdentity {
  arn: string
  userId: string
  account: string
}

export interface AssumedRoleCredentials extends AwsCredentials {
  sessionToken: string
  expiration: string
  assumedRoleArn: string
  assumedRoleId: string
}

/** Test set-up: the inventory, signed material and the provider's settings (`doppel.cloud` in a test). */
export interface CloudSetup {
  createInstance(input?: InstanceInput): Instance
  /** The instance as it is now; undefined for an id the cloud does not have. */
  getInstance(instanceId: string): Instance | undefined
  /** Moves an instance to `state` (`stopped`, `terminated`…); an ec2 login checks it is `running`. */
  setInstanceState(instanceId: string, state: InstanceState): Instance
  /** Changes the given metadata options (`http_tokens`, `instance_metadata_tags`), as EC2's ModifyInstanceMetadataOptions. */
  modifyInstanceMetadataOptions(instanceId: string, options: MetadataOptions): Instance
  /** Creates an IAM user or role (with its access key, for a user); returns it with its credentials. */
  createPrincipal(input: PrincipalInput): Principal
  /** Deletes a user or role by ARN or name; false when there was none. */
  deletePrincipal(arnOrName: string): boolean
  /** The identity that the auth service acts as when neither config/client nor CLOUD_* keys are set. */
  defaultServiceCredentials(): AwsCredentials
  /** Which instance 169.254.169.254 answers for in MSW mode. */
  useInstance(instanceId: string): void

  /** As the IMDS serves it: document JSON text, or base64 wrapped at 76 columns for the signatures. */
  identityDocument(instanceId: string, format: IdentityFormat): string
  /** PEM certificates the auth service trusts by default, by registered-certificate type. */
  builtInCertificates(): {
    /** Certificates that verify the `pkcs7` document (and `rsa2048`). */
    pkcs7: string[]
    /** Certificates that verify the `document` + `signature` pair. */
    identity: string[]
  }

  /** Provider eventual consistency (opt-in, emulator-defined): how long a key from CreateAccessKey stays unusable. */
  consistency(): { key_propagation_seconds: number }
  /** Sets it (0 to 3600 seconds on the emulator clock; 0, the default, turns it off). A reset turns it off. */
  setConsistency(settings: { key_propagation_seconds: number }): { key_propagation_seconds: number }
}

/**
 * The provider as its SDK calls it, acting as `credentials`: the calls the auth service makes, declared
 * once. The fake cloud's direct face answers them in process (throwing `CloudError` as the HTTP API
 * answers); the auth service's remote provider sends them over HTTP to a configured endpoint.
 */
export interface ProviderCalls {
  getCallerIdentity(credentials: AwsCredentials): CallerIdentity
  assumeRole(credentials: AwsCredentials, input: AssumeRoleInput): AssumedRoleCredentials
  /** EC2 is regional: the call names the region it is answered in. */
  describeInstance(credentials: AwsCredentials, region: string, instanceId: string): DescribedInstance
  getInstanceProfile(credentials: AwsCredentials, name: string): IamEntity
  getUser(credentials: AwsCredentials, name?: string): IamEntity
  getRole(credentials: AwsCredentials, name: string): IamEntity
  createAccessKey(credentials: AwsCredentials, userName?: string): NewAccessKey
  deleteAccessKey(credentials: AwsCredentials, accessKeyId: string, userName?: string): void
}

export interface AssumeRoleInput {
  roleArn: string
  sessionName: string
  externalId?: string
  durationSeconds?: number
}

export interface NewAccessKey {
  accessKeyId: string
  secretAccessKey: string
  userName: string
}

/** The fake cloud's own listeners (per-instance IMDS), which a test closes. */
export interface CloudListeners {
  /** Starts (once) a node:http listener answering as that instance's IMDS at `/latest/...`. */
  startImdsListener(instanceId: string): Promise<{ endpoint: string }>
  /** Closes every IMDS listener of this emulator (also done on `reset()`). */
  close(): Promise<void>
}

/** The fake cloud's direct face (`doppel.cloud`): set-up, the provider's calls, its listeners. */
export interface FakeCloudApi extends CloudSetup, ProviderCalls, CloudListeners {
  /**
   * A client's signed STS request replayed by the auth service (iam login): SigV4-verified exactly as the
   * client signed it, answered as the STS HTTP API answers (XML, `Content-Type: text/xml`).
   */
  forwardSts(request: Request): Promise<Response>
}

/** What `seedCloud` takes: the `cloud` part of a fixture. */
export interface CloudFixture {
  /** Known accounts; instances and principals may also name accounts not listed here. */
  accounts?: (string | { account_id: string })[]
  instances?: InstanceInput[]
  principals?: PrincipalInput[]
  /** The instance 169.254.169.254 answers for (`useInstance`). */
  use_instance?: string
}

export interface SeededCloud {
  instances: Instance[]
  principals: Principal[]
}
