/**
 * The error codes the auth service throws, with what each means (see `core/doppel-error.ts`): its answers
 * (the `status` property carries the HTTP status), then its parsers and checks (their message becomes part
 * of an answer) and its provider calls.
 */
export const CLOUD_AUTH_ERROR_CODES = {
  DOPPEL_AUTH_REFUSED: 'an error answer of the auth service',
  DOPPEL_INVALID_REQUEST_DATA: 'a request body the auth service cannot read',
  DOPPEL_LOGIN_REFUSED: 'a refused login',
  DOPPEL_RENEW_REFUSED: "a renewal the login method's re-check refuses",
  DOPPEL_INVALID_FIELD: 'a field value that does not convert to its type',
  DOPPEL_INVALID_ADDRESS: 'a bound CIDR item that is no address',
  DOPPEL_INVALID_ARN: 'an IAM ARN that does not parse',
  DOPPEL_INVALID_ROLE_TAG: 'a role tag that does not parse or verify',
  DOPPEL_INVALID_PKCS7: 'a PKCS#7 signature that does not verify',
  DOPPEL_INSTANCE_CHECK_FAILED: 'DescribeInstances did not give the running instance asked for',
  DOPPEL_PROVIDER_CREDENTIALS: 'no credentials for a provider call',
  DOPPEL_UPSTREAM_FAILED: 'a provider call over HTTP got no answer',
  DOPPEL_UPSTREAM_TIMEOUT: 'a provider call over HTTP timed out',
  DOPPEL_UPSTREAM_TOO_LARGE: "a provider's answer over the size limit",
} as const

declare module '../../core/doppel-error.ts' {
  interface DoppelErrorCodes extends Record<keyof typeof CLOUD_AUTH_ERROR_CODES, string> {}
}
