import type { AccessKeyRecord, InstanceProfileRecord, PrincipalRecord } from '../cloud-state.ts'
import { element, memberList, textElement } from '../query-xml.ts'

/** The shapes of IAM results, members in the SDK model's order (docs/reference/fake-cloud.md §7.2). */

/** Trust policies are not modelled; roles show the usual EC2 trust policy, URL-encoded as IAM returns it. */
const TRUST_POLICY = encodeURIComponent(
  JSON.stringify({
    Version: '2012-10-17',
    Statement: [{ Effect: 'Allow', Principal: { Service: 'ec2.amazonaws.com' }, Action: 'sts:AssumeRole' }],
  }),
)

const user = (record: PrincipalRecord): string =>
  textElement('Path', record.path) +
  textElement('UserName', record.name) +
  textElement('UserId', record.unique_id) +
  textElement('Arn', record.arn) +
  textElement('CreateDate', record.create_date)

const role = (record: PrincipalRecord): string =>
  textElement('Path', record.path) +
  textElement('RoleName', record.name) +
  textElement('RoleId', record.unique_id) +
  textElement('Arn', record.arn) +
  textElement('CreateDate', record.create_date) +
  textElement('AssumeRolePolicyDocument', TRUST_POLICY) +
  textElement('MaxSessionDuration', record.max_session_duration)

const keyMetadata = (key: AccessKeyRecord, userName: string): string =>
  textElement('UserName', userName) +
  textElement('AccessKeyId', key.access_key_id) +
  textElement('Status', key.status) +
  textElement('CreateDate', key.create_date)

/** The `…Result` bodies of the IAM operations. */
export const iamXml = {
  getUser: (record: PrincipalRecord): string => element('User', user(record)),
  getRole: (record: PrincipalRecord): string => element('Role', role(record)),
  getInstanceProfile: (profile: InstanceProfileRecord, roles: PrincipalRecord[]): string =>
    element(
      'InstanceProfile',
      textElement('Path', profile.path),
      textElement('InstanceProfileName', profile.name),
      textElement('InstanceProfileId', profile.unique_id),
      textElement('Arn', profile.arn),
      textElement('CreateDate', profile.create_date),
      memberList('Roles', roles.map(role)),
    ),
  listAccessKeys: (owner: PrincipalRecord, keys: AccessKeyRecord[]): string =>
    memberList('AccessKeyMetadata', keys.map((key) => keyMetadata(key, owner.name))) +
    textElement('IsTruncated', false) +
    textElement('UserName', owner.name),
  createAccessKey: (key: AccessKeyRecord, userName: string): string =>
    element(
      'AccessKey',
      textElement('UserName', userName),
      textElement('AccessKeyId', key.access_key_id),
      textElement('Status', key.status),
      textElement('SecretAccessKey', key.secret_access_key),
      textElement('CreateDate', key.create_date),
    ),
}
