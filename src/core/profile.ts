/**
 * A profile only renames: header names, mounts and environment variable names. `service` uses the
 * spec's names; `vault` also accepts Vault's, so existing Vault clients work against doppel unchanged.
 */
export interface Profile {
  name: 'service' | 'vault'
  /** Headers that carry a management token, lower-case, in order of preference. */
  tokenHeaders: string[]
  /** The server-id header the iam login checks, as the error texts spell it. */
  serverIdHeader: string
  /** Mount paths under `/v1/auth/` where the auth method answers. */
  mounts: string[]
  /** Prefix of the environment variables holding the service's own credentials. */
  envPrefix: string
  /** Whether Vault's own description path (`/v1/sys/internal/specs/openapi`) answers. */
  vaultOpenApi: boolean
}

export const SERVICE_PROFILE: Profile = {
  name: 'service',
  tokenHeaders: ['x-service-token'],
  serverIdHeader: 'X-Service-Cloud-IAM-Server-ID',
  mounts: ['cloud'],
  envPrefix: 'CLOUD',
  vaultOpenApi: false,
}

export const VAULT_PROFILE: Profile = {
  name: 'vault',
  tokenHeaders: ['x-vault-token', 'x-service-token'],
  serverIdHeader: 'X-Vault-AWS-IAM-Server-ID',
  mounts: ['cloud', 'aws'],
  envPrefix: 'CLOUD',
  vaultOpenApi: true,
}

/** Every profile, for rules that hold whichever is active (redaction of every token header). */
export const PROFILES: readonly Profile[] = [SERVICE_PROFILE, VAULT_PROFILE]

export function getProfile(name: string | undefined): Profile {
  if (name === undefined || name === 'service') return SERVICE_PROFILE
  if (name === 'vault') return VAULT_PROFILE
  throw new RangeError(`Failed to choose a profile: "${name}" is not one of service, vault`)
}
