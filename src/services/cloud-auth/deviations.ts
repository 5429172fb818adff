/**
 * Where doppel's auth service knowingly answers differently from the real one, as data for the README.
 * `bad-input-5xx`: the real service answers bad input with a 500; the service profile answers 400 with the
 * same message, because bad input must never give a 5xx, and the vault profile Vault's 500 (the refusal is
 * thrown with both statuses, `BAD_INPUT_500`). `spec`: the spec states a behaviour the real
 * service does not have, and the spec wins. `real`: the spec states a rule the real service does not apply,
 * and doppel answers as the real service, because clients written against it rely on that.
 */
export interface Deviation {
  kind: 'bad-input-5xx' | 'spec' | 'real'
  path: string
  /** The message (or a description of the behaviour) both answer with. */
  message: string
  realStatus?: number
  doppelStatus?: number
  note?: string
}

export const DEVIATIONS: readonly Deviation[] = [
  {
    kind: 'bad-input-5xx',
    path: 'config/certificate/:cert_name',
    message: 'invalid certificate; should be one PEM block only',
    realStatus: 500,
    doppelStatus: 400,
    note: 'not PEM, several PEM blocks, or text after the block',
  },
  {
    kind: 'bad-input-5xx',
    path: 'config/certificate/:cert_name',
    message: 'x509: malformed certificate',
    realStatus: 500,
    doppelStatus: 400,
    note: "a PEM block that does not parse as X.509; the real text is Go's parser error, which varies",
  },
  ...[
    'invalid tag',
    'invalid role tag version',
    'unrecognized item "<item>" in tag',
    'strconv.ParseBool: parsing "<value>": invalid syntax',
    'time: invalid duration "<value>"',
    'missing role name',
    'missing nonce',
    'entry not found for "<role>"',
    'role tag signature verification failed',
  ].map(
    (message): Deviation => ({
      kind: 'bad-input-5xx',
      path: 'roletag-denylist/:role_tag (POST)',
      message,
      realStatus: 500,
      doppelStatus: 400,
      note: 'a tag that does not parse or verify',
    }),
  ),
  {
    kind: 'bad-input-5xx',
    path: 'role/:role/tag',
    message: "role tag 'value' exceeding the limit of 255 characters",
    realStatus: 500,
    doppelStatus: 400,
  },
  ...[
    'error calling GetUser: <provider error>',
    'nil UserName returned from GetUser',
    'error calling CreateAccessKey: <provider error>',
    'error deleting old access key ID <id>: <provider error>',
  ].map(
    (message): Deviation => ({
      kind: 'bad-input-5xx',
      path: 'config/rotate-root',
      message,
      realStatus: 500,
      doppelStatus: 400,
      note: 'provider errors, e.g. the IAM user already has two access keys',
    }),
  ),
  ...[
    'failed to renew entry: <re-check failure>',
    'past the max TTL, cannot renew',
  ].map(
    (message): Deviation => ({
      kind: 'bad-input-5xx',
      path: 'auth/token/renew-self',
      message,
      realStatus: 500,
      doppelStatus: 400,
      note: "a token whose instance, access-list entry, role or principal binding no longer holds, or past its max TTL",
    }),
  ),
  ...[
    'failed to decode the PEM encoded PKCS#7 signature',
    'failed to parse the BER encoded PKCS#7 signature: <parser error>',
    'failed to verify the signature: <pkcs7 error>',
    'instance identity document could not be found in the signature',
    '<JSON error of the document>',
    'missing instance identity document',
    'missing SHA256 RSA signature of the instance identity document',
    'instance identity verification using SHA256 RSA signature is unsuccessful',
    'missing role name',
  ].map(
    (message): Deviation => ({
      kind: 'bad-input-5xx',
      path: 'login (ec2)',
      message,
      realStatus: 500,
      doppelStatus: 400,
      note: 'a document that does not decode or verify, or no role name',
    }),
  ),
  ...[
    'AMI ID in the instance description is nil',
    'subnet ID in the instance description is nil',
    'VPC ID in the instance description is nil',
    'IAM instance profile in the instance description is nil',
    'IAM instance profile ARN in the instance description is nil',
    'IAM instance profile ARN in the instance description is empty',
    'failed to parse IAM instance profile ARN "<arn>": <reason>',
    'could not fetch IAM client: <reason>',
    'IAM role ARN could not be fetched: <reason>',
  ].map(
    (message): Deviation => ({
      kind: 'bad-input-5xx',
      path: 'login (ec2; iam with inference)',
      message,
      realStatus: 500,
      doppelStatus: 400,
      note: 'a bound the instance has no attribute for, or its profile without exactly one role',
    }),
  ),
  ...[
    'missing tag with key "<role_tag>" on the instance',
    '<deny-list POST tag error>',
    'role on the tag is not matching the role supplied',
    'role tag is being used by an unauthorized instance',
    'role tag is deny listed',
    'policies on the role tag must be subset of policies on the role',
  ].map(
    (message): Deviation => ({
      kind: 'bad-input-5xx',
      path: 'login (ec2 with a role tag)',
      message,
      realStatus: 500,
      doppelStatus: 400,
      note: 'a role tag that is missing, does not parse or verify, or does not fit the login',
    }),
  ),
  {
    kind: 'spec',
    path: 'config/tidy/roletag-denylist',
    message: 'safety_buffer defaults to 259200 (72h) on create',
    note: 'the real service defaults to 15552000 (180 days)',
  },
  {
    kind: 'spec',
    path: '(periodic tidy of the role tag deny list)',
    message: 'without a tidy config the buffer is 259200 (72h)',
    note: 'the real service uses 15552000 (180 days)',
  },
  {
    kind: 'spec',
    path: 'role/:role/tag',
    message: 'policies given but empty yield a tag carrying only `default` (p=default)',
    note: 'the real service writes no p= item, so the tag carries the role policies',
  },
  {
    kind: 'spec',
    path: 'roletag-denylist/:role_tag (GET, DELETE)',
    message: 'the tag may be base64-encoded on every method',
    note: 'the real service decodes base64 only on POST',
  },
  {
    kind: 'spec',
    path: 'tidy/identity-accesslist, tidy/roletag-denylist',
    message: 'the tidy finishes before the 202 answer',
    note: 'the real service tidies in the background',
  },
  {
    kind: 'real',
    path: 'role/:role/tag, login (ec2 with a role tag)',
    message: "a tag whose policies equal the role's is made and logs in",
    note: "the spec asks for a strict subset; the real service checks only that the tag's policies are a subset",
  },
]
