/**
 * A profile is data the services read, never a name they branch on: header names, mounts, the environment
 * variables of the service's own credentials, the one spec rule Vault's code does not apply (SHA-1), and
 * whether bad input Vault answers with a 500 gets Vault's status.
 * `service` uses the spec's names; `vault` also accepts Vault's headers and reads Vault's environment, so
 * existing Vault clients and set-ups work against doppel unchanged.
 */
export interface Profile {
  name: 'service' | 'vault'
  /** Headers that carry a management token, lower-case, in order of preference. */
  tokenHeaders: string[]
  /** The server-id header the iam login checks, as the error texts spell it. */
  serverIdHeader: string
  /** Mount paths under `/v1/auth/` where the auth method answers. */
  mounts: string[]
  /** Environment variables holding the service's own credentials; for each, the first set name wins. */
  credentialEnv: CredentialEnv
  /**
   * Whether the ec2 login verifies SHA-1-based document signatures. The spec refuses them (Authentication
   * 3) unless the emulator runs with `allowSha1`; Vault's code never applies Go's SHA-1 policy there
   * (docs/decisions/vault-profile-sha1.md).
   */
  acceptsSha1Signatures: boolean
  /** Whether Vault's own description path (`/v1/sys/internal/specs/openapi`) answers. */
  vaultOpenApi: boolean
  /** Whether unauthenticated `GET /v1/sys/health` and `/v1/sys/seal-status` answer as a Vault dev server's. */
  devServerStatus: boolean
  /**
   * The status of bad input the real service answers as an internal error (500): `400` (the spec: bad input
   * never gives a 5xx) or `'real'`, the real service's status, for clients whose retry and alerting logic
   * branches on 5xx (the README's "Deliberate differences").
   */
  badInputStatus: 'real' | 400
}

export interface CredentialEnv {
  accessKey: readonly string[]
  secretKey: readonly string[]
  sessionToken: readonly string[]
}

export const SERVICE_PROFILE: Profile = {
  name: 'service',
  tokenHeaders: ['x-service-token'],
  serverIdHeader: 'X-Service-Cloud-IAM-Server-ID',
  mounts: ['cloud'],
  credentialEnv: { accessKey: ['CLOUD_ACCESS_KEY'], secretKey: ['CLOUD_SECRET_KEY'], sessionToken: ['CLOUD_SESSION_TOKEN'] },
  acceptsSha1Signatures: false,
  vaultOpenApi: false,
  devServerStatus: false,
  badInputStatus: 400,
}

export const VAULT_PROFILE: Profile = {
  name: 'vault',
  tokenHeaders: ['x-vault-token', 'x-service-token'],
  serverIdHeader: 'X-Vault-AWS-IAM-Server-ID',
  mounts: ['cloud', 'aws'],
  // The Go SDK's environment provider, which Vault's credential chain uses: the long names, then the short.
  credentialEnv: {
    accessKey: ['AWS_ACCESS_KEY_ID', 'AWS_ACCESS_KEY'],
    secretKey: ['AWS_SECRET_ACCESS_KEY', 'AWS_SECRET_KEY'],
    sessionToken: ['AWS_SESSION_TOKEN'],
  },
  acceptsSha1Signatures: true,
  vaultOpenApi: true,
  devServerStatus: true,
  badInputStatus: 'real',
}

/** The status a profile answers bad input with where the real service answers a 500 (scenarios read it). */
export function badInputStatusCode(profile: Profile): number {
  return profile.badInputStatus === 'real' ? 500 : profile.badInputStatus
}

/** Every profile, for rules that hold whichever is active (redaction of every token header). */
export const PROFILES: readonly Profile[] = [SERVICE_PROFILE, VAULT_PROFILE]

export function getProfile(name: string | undefined): Profile {
  if (name === undefined || name === 'service') return SERVICE_PROFILE
  if (name === 'vault') return VAULT_PROFILE
  throw new RangeError(`Failed to choose a profile: "${name}" is not one of service, vault`)
}
