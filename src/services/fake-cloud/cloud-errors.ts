import { CloudError } from './glossary.ts'

/**
 * Every error the fake cloud answers with, in one table: code, HTTP status and message as the real
 * services send them (docs/reference/fake-cloud.md §4.4, docs/reference/fake-cloud.md §6.3, docs/reference/fake-cloud.md §7.3). Routes and operations never spell a
 * message themselves.
 */

/** Why a request's authentication failed; EC2 reports the same failures under other codes (docs/reference/fake-cloud.md §6.3). */
type AuthFailureReason = 'missing' | 'incomplete' | 'unknown-key' | 'signature' | 'skew' | 'expired'

/** A CloudError raised while authenticating a request (named `CloudError` like any other). */
class SigV4Failure extends CloudError {
  readonly reason: AuthFailureReason
  constructor(reason: AuthFailureReason, code: string, message: string, status: number) {
    super(code, message, status)
    this.reason = reason
  }
}

const SIGNATURE_MISMATCH =
  'The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method. Consult the service documentation for details.'

const validation = (fragments: string[]): CloudError =>
  new CloudError(
    'ValidationError',
    `${fragments.length} validation error${fragments.length === 1 ? '' : 's'} detected: ${fragments.join('; ')}`,
    400,
  )

/** Constructors of every error, by situation. */
export const cloudErrors = {
  // Authentication (STS and IAM; EC2 maps them with `asEc2Error`).
  missingAuthentication: () => new SigV4Failure('missing', 'MissingAuthenticationToken', 'Request is missing Authentication Token', 403),
  incompleteSignature: (message: string) => new SigV4Failure('incomplete', 'IncompleteSignature', message, 400),
  invalidClientTokenId: () =>
    new SigV4Failure('unknown-key', 'InvalidClientTokenId', 'The security token included in the request is invalid.', 403),
  expiredToken: () => new SigV4Failure('expired', 'ExpiredToken', 'The security token included in the request is expired', 403),
  signatureMismatch: () => new SigV4Failure('signature', 'SignatureDoesNotMatch', SIGNATURE_MISMATCH, 403),
  scopeMismatch: (message: string) => new SigV4Failure('signature', 'SignatureDoesNotMatch', message, 403),
  signatureExpired: (requestTime: string, earliest: string, now: string) =>
    new SigV4Failure('skew', 'SignatureDoesNotMatch', `Signature expired: ${requestTime} is now earlier than ${earliest} (${now} - 15 min.)`, 403),
  signatureNotYetCurrent: (requestTime: string, latest: string, now: string) =>
    new SigV4Failure('skew', 'SignatureDoesNotMatch', `Signature not yet current: ${requestTime} is still later than ${latest} (${now} + 15 min.)`, 403),

  // Query protocol.
  missingAction: () => new CloudError('MissingAction', 'Missing Action', 400),
  invalidAction: (action: string, version: string) =>
    new CloudError('InvalidAction', `Could not find operation ${action} for version ${version}`, 400),
  bodyTooLarge: () => new CloudError('RequestEntityTooLarge', 'Request body is too large', 413),
  stateTooLarge: (message: string) => new CloudError('RequestEntityTooLarge', message, 413),
  validation,

  // STS.
  assumeRoleDenied: (callerArn: string, roleArn: string) =>
    new CloudError('AccessDenied', `User: ${callerArn} is not authorized to perform: sts:AssumeRole on resource: ${roleArn}`, 403),
  notAuthorized: (callerArn: string, action: string, resource: string, explicit: boolean) =>
    new CloudError(
      'AccessDenied',
      `User: ${callerArn} is not authorized to perform: ${action} on resource: ${resource}${explicit ? ' with an explicit deny in an identity-based policy' : ''}`,
      403,
    ),
  unauthorizedOperation: (callerArn: string, action: string, explicit: boolean) =>
    new CloudError(
      'UnauthorizedOperation',
      `You are not authorized to perform this operation. User: ${callerArn} is not authorized to perform: ${action}${explicit ? ' with an explicit deny in an identity-based policy' : ''}`,
      403,
    ),
  invalidRoleArn: (arn: string) => new CloudError('ValidationError', `${arn} is invalid`, 400),
  durationAboveRoleMaximum: () =>
    new CloudError('ValidationError', 'The requested DurationSeconds exceeds the MaxSessionDuration set for this role.', 400),
  durationAboveChainingLimit: () =>
    new CloudError('ValidationError', 'The requested DurationSeconds exceeds the 1 hour session limit for roles assumed by role chaining.', 400),

  // IAM.
  noSuchUser: (name: string) => new CloudError('NoSuchEntity', `The user with name ${name} cannot be found.`, 404),
  noSuchRole: (name: string) => new CloudError('NoSuchEntity', `The role with name ${name} cannot be found.`, 404),
  noSuchInstanceProfile: (name: string) => new CloudError('NoSuchEntity', `Instance Profile ${name} cannot be found.`, 404),
  noSuchAccessKey: (id: string) => new CloudError('NoSuchEntity', `The Access Key with id ${id} cannot be found.`, 404),
  accessKeyLimit: () => new CloudError('LimitExceeded', 'Cannot exceed quota for AccessKeysPerUser: 2', 409),
  userNameRequired: () => new CloudError('ValidationError', 'Must specify userName when calling with non-User credentials', 400),
  userExists: (name: string) => new CloudError('EntityAlreadyExists', `User with name ${name} already exists.`, 409),
  roleExists: (name: string) => new CloudError('EntityAlreadyExists', `Role with name ${name} already exists.`, 409),
  instanceProfileConflict: (name: string) => new CloudError('EntityAlreadyExists', `Instance Profile ${name} already exists.`, 409),

  // EC2.
  instanceNotFound: (ids: string[]) =>
    new CloudError(
      'InvalidInstanceID.NotFound',
      ids.length === 1 ? `The instance ID '${ids[0]}' does not exist` : `The instance IDs '${ids.join(', ')}' do not exist`,
      400,
    ),
  instanceIdMalformed: (id: string) => new CloudError('InvalidInstanceID.Malformed', `Invalid id: "${id}"`, 400),
  instanceExists: (id: string) => new CloudError('InvalidInstanceID.Duplicate', `The instance ID '${id}' already exists`, 409),
  incorrectInstanceState: (id: string) =>
    new CloudError('IncorrectInstanceState', `The instance '${id}' is terminated; its state cannot change.`, 400),
  maxResultsWithIds: () =>
    new CloudError('InvalidParameterCombination', 'The parameter instancesSet cannot be used with the parameter maxResults', 400),
  invalidParameterValue: (message: string) => new CloudError('InvalidParameterValue', message, 400),
  invalidFilter: (name: string) => new CloudError('InvalidParameterValue', `The filter '${name}' is invalid`, 400),
  dryRun: () => new CloudError('DryRunOperation', 'Request would have succeeded, but DryRun flag is set.', 412),

  // doppel's own inputs (control API, fixtures, direct face).
  badInput: (message: string) => new CloudError('InvalidInput', message, 400),
  listenerLimit: (limit: number) =>
    new CloudError('ListenerLimitExceeded', `Failed to start the metadata listener: ${limit} are open, the limit (fakeCloud.imdsListenerLimit, --imds-listener-limit); close one or reset`, 409),
  ambiguousPrincipal: (name: string, count: number) =>
    new CloudError('AmbiguousName', `Failed to delete principal "${name}": ${count} principals have that name; give its ARN`, 400),
}

/**
 * An authentication failure as EC2 reports it (docs/reference/fake-cloud.md §6.3): other codes and statuses for the same
 * causes, the same explanation.
 */
export function asEc2Error(error: CloudError): CloudError {
  if (!(error instanceof SigV4Failure)) return error
  const mapped = ec2Failure(error)
  if (error.explanation) mapped.explain(error.explanation)
  return mapped
}

function ec2Failure(error: SigV4Failure): CloudError {
  switch (error.reason) {
    case 'missing':
      return new CloudError(error.code, error.message, 401)
    case 'unknown-key':
    case 'signature':
      return new CloudError('AuthFailure', 'AWS was not able to validate the provided access credentials', 401)
    case 'skew':
    case 'expired':
      return new CloudError('RequestExpired', 'Request has expired.', 400)
    default:
      return error
  }
}
