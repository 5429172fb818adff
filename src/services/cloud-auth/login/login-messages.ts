/**
 * Every error text only the login answers with, once (docs/reference/cloud-auth.md §3.12, docs/reference/cloud-auth.md §4, docs/reference/cloud-auth.md §5, docs/reference/cloud-auth.md §1.9); the
 * texts it shares with other endpoints (`permission denied`, field validation) are in `../auth-messages.ts`.
 * Clients match on these strings, so they are copied to the letter; the routes only pick one.
 */

import { goQuote } from '../../../core/go/go-format.ts'

const SHA1_OVERRIDE = ' (temporarily override with GODEBUG=x509sha1=1)'

export const LOGIN_MESSAGES = {
  // Dispatch (docs/reference/cloud-auth.md §3.12)
  bothTypes: 'supplied auth values for both ec2 and iam auth types',
  noAuthValues: "didn't supply required authentication values",

  // ec2 inputs (docs/reference/cloud-auth.md §4 A, B1, B2)
  identityBase64: 'failed to base64 decode the instance identity document',
  signatureBase64: 'failed to base64 decode the SHA256 RSA signature of the instance identity document',
  neitherEc2Input:
    'either pkcs7 or a tuple containing the instance identity document and its SHA256 RSA signature needs to be provided',
  bothEc2Inputs:
    'both pkcs7 and a tuple containing the instance identity document and its SHA256 RSA signature is supplied; provide only one',
  pkcs7Pem: 'failed to decode the PEM encoded PKCS#7 signature',
  pkcs7Parse: (reason: string) => `failed to parse the BER encoded PKCS#7 signature: ${reason}`,
  pkcs7Verify: (reason: string) => `failed to verify the signature: ${reason}`,
  pkcs7NoContent: 'instance identity document could not be found in the signature',
  missingIdentity: 'missing instance identity document',
  missingSignature: 'missing SHA256 RSA signature of the instance identity document',
  identityUnverified: 'instance identity verification using SHA256 RSA signature is unsuccessful',
  /** The x509 refusal of a SHA-1-based signature (spec, Authentication 3). */
  insecureAlgorithm: (algorithm: string) => `x509: cannot verify signature: insecure algorithm ${algorithm}${SHA1_OVERRIDE}`,

  // Role (docs/reference/cloud-auth.md §4 C, docs/reference/cloud-auth.md §5 F)
  missingRoleName: 'missing role name',
  ec2RoleNotFound: (role: string) => `entry for role ${goQuote(role)} not found`,
  iamRoleNotFound: (role: string) => `entry for role ${role} not found`,
  authTypeNotAllowed: (type: 'ec2' | 'iam', role: string) => `auth method ${type} not allowed for role ${role}`,

  // Instance (docs/reference/cloud-auth.md §4 D, E)
  verifyInstance: (reason: string) => `failed to verify instance ID: ${reason}`,
  describeFailed: (instanceId: string, reason: string) => `error fetching description for instance ID ${goQuote(instanceId)}: ${reason}`,
  incompleteDescription: {
    reservations: 'no reservations found in instance description',
    instances: 'no instance details found in reservations',
    state: 'instance state in instance description is nil',
  },
  instanceIdMismatch: 'expected instance ID not matching the instance ID in the instance description',
  notRunning: "instance is not in 'running' state",
  regionBound: (region: string, role: string) => `Region ${goQuote(region)} does not satisfy the constraint on role ${goQuote(role)}`,
  ec2ValidationFailed: (reason: string) => `Error validating instance: ${reason}`,
  iamValidationFailed: (reason: string) => `error validating instance: ${reason}`,
  instanceIdBound: (id: string, role: string) => `instance ID ${goQuote(id)} does not belong to the role ${goQuote(role)}`,
  accountIdBound: (account: string, role: string) => `account ID ${goQuote(account)} does not belong to role ${goQuote(role)}`,
  amiNil: 'AMI ID in the instance description is nil',
  amiBound: (ami: string, role: string) => `AMI ID ${goQuote(ami)} does not belong to role ${goQuote(role)}`,
  subnetNil: 'subnet ID in the instance description is nil',
  subnetBound: (subnet: string, role: string) => `subnet ID ${goQuote(subnet)} does not satisfy the constraint on role ${goQuote(role)}`,
  vpcNil: 'VPC ID in the instance description is nil',
  vpcBound: (vpc: string, role: string) => `VPC ID ${goQuote(vpc)} does not satisfy the constraint on role ${goQuote(role)}`,
  profileNil: 'IAM instance profile in the instance description is nil',
  profileArnNil: 'IAM instance profile ARN in the instance description is nil',
  profileArnEmpty: 'IAM instance profile ARN in the instance description is empty',
  profileBound: (arn: string, role: string) => `IAM instance profile ARN ${goQuote(arn)} does not satisfy the constraint role ${goQuote(role)}`,
  profileArnParse: (arn: string, reason: string) => `failed to parse IAM instance profile ARN ${goQuote(arn)}: ${reason}`,
  iamClient: (reason: string) => `could not fetch IAM client: ${reason}`,
  roleArnFetch: (reason: string) => `IAM role ARN could not be fetched: ${reason}`,
  profileRoles: 'invalid roles in the output of instance profile details',
  roleArnBound: (arn: string, role: string) => `IAM role ARN ${goQuote(arn)} does not satisfy the constraint role ${goQuote(role)}`,

  // Nonce and access list (docs/reference/cloud-auth.md §4 F, H)
  storedNonceMissing: 'client nonce missing in stored identity',
  reauthDisabled: 'reauthentication is disabled',
  nonceMismatch: 'client nonce mismatch',
  nonceMismatchMigration: 'client nonce mismatch and instance meta-data incorrect',
  olderMetadata: 'instance meta-data is older than the one used for previous login',
  nonceTooLong: 'client nonce exceeding the limit of 128 characters',

  // Role tag (docs/reference/cloud-auth.md §4 G)
  missingTag: (key: string) => `missing tag with key ${goQuote(key)} on the instance`,
  tagRoleMismatch: 'role on the tag is not matching the role supplied',
  tagInstanceMismatch: 'role tag is being used by an unauthorized instance',
  tagDenyListed: 'role tag is deny listed',
  tagPolicies: 'policies on the role tag must be subset of policies on the role',

  // iam request (docs/reference/cloud-auth.md §5 A, B)
  missingMethod: 'missing iam_http_request_method',
  invalidMethod: "invalid iam_http_request_method; currently only 'GET' and 'POST' are supported",
  missingUrl: 'missing iam_request_url',
  urlBase64: 'failed to base64 decode iam_request_url',
  urlParse: 'error parsing iam_request_url',
  invalidRequest: 'invalid request',
  missingBody: 'missing iam_request_body which is required for POST requests',
  bodyBase64: 'failed to base64 decode iam_request_body',
  bodyInvalid: 'iam request body is invalid',
  queryNoAction: 'no action found in request',
  queryActions: 'found multiple actions',
  queryAction: (action: string) => `unexpected action parameter, ${action}`,
  missingHeaders: 'missing iam_request_headers',
  serverIdHeader: (header: string, reason: string) => `error validating ${header} header: ${reason}`,
  serverIdMissing: (header: string) => `missing header ${goQuote(header)}`,
  serverIdMismatch: (expected: string, given: string) => `expected ${goQuote(expected)} but got ${goQuote(given)}`,
  authorizationMissing: 'missing Authorization header',
  serverIdUnsigned: "vault header wasn't signed",
  headerNotAllowed: (key: string) => `invalid request header: ${key}`,
  queryParamNotAllowed: (key: string) => `invalid request query param: ${key}`,
  regionMissing: 'region missing from Authorization header',
  regionalEndpoint: (region: string) => `unable to get regional STS endpoint for region: ${region}`,

  // Forwarding to STS (docs/reference/cloud-auth.md §5 C)
  upstream: (reason: string) => `error making upstream request: ${reason}`,
  givingUp: (method: string, url: string, attempts: number) => `error making request: ${method} ${url} giving up after ${attempts} attempt(s)`,
  stsContentType: 'body of GetCallerIdentity is invalid',
  stsStatus: (status: number, body: string) => `received error code ${status} from STS: ${body}`,
  stsParse: 'error parsing STS response',
  arnParse: (arn: string, reason: string) => `error parsing arn ${goQuote(arn)}: ${reason}`,

  // Principal binding and inference (docs/reference/cloud-auth.md §5 G, H)
  principalNotBound: (arn: string, role: string) => `IAM Principal ${goQuote(arn)} does not belong to the role ${goQuote(role)}`,
  fullArnLookup: (entity: string, role: string, reason: string) =>
    `error looking up full ARN of entity ${entity} when attempting login for role ${goQuote(role)}: ${reason}`,
  fullArnEmpty: (entity: string, role: string) =>
    `got empty string back when looking up full ARN of entity ${entity} when attempting login for role ${goQuote(role)}`,
  partitionRegion: (partition: string) => `unable to resolve partition ${goQuote(partition)} to a region`,
  iamClientCreate: (reason: string) => `error creating IAM client: ${reason}`,
  fetchUser: (name: string, reason: string) => `error fetching user ${goQuote(name)}: ${reason}`,
  fetchRole: (name: string, reason: string) => `error fetching role ${goQuote(name)}: ${reason}`,
  unknownEntityType: (type: string) => `unrecognized entity type: ${type}`,
  inferenceFailed: (instanceId: string, region: string, reason: string) =>
    `failed to verify ${instanceId} as a valid EC2 instance in region ${region}: ${reason}`,

  // Token creation by the core (docs/reference/cloud-auth.md §1.9)
  rootToken: 'auth methods cannot create root tokens',
} as const
