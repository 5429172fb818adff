/**
 * What the auth method reads of the active profile (core/profile.ts holds only what every service reads):
 * data, never a name it branches on.
 */
import type { Profile, ProfileName } from '../../core/profile.ts'
import { VAULT_LISTENER_JSON_LIMITS, type JsonLimits } from './listener-json-limits.ts'

export interface AuthProfile {
  /** The server-id header the iam login checks, as the error texts spell it. */
  serverIdHeader: string
  /** Mount paths under `/v1/auth/` where the auth method answers. */
  mounts: string[]
  /** Environment variables holding the service's own credentials; for each, the first set name wins. */
  credentialEnv: CredentialEnv
  /**
   * Whether the ec2 login verifies SHA-1-based document signatures. The spec refuses them (Authentication
   * 3) unless the emulator runs with `cloudAuth: { allowSha1 }`; Vault's code never applies Go's SHA-1
   * policy there (docs/decisions/vault-profile-sha1.md).
   */
  acceptsSha1Signatures: boolean
  /** Whether Vault's own description path (`/v1/sys/internal/specs/openapi`) answers. */
  vaultOpenApi: boolean
  /** Whether unauthenticated `GET /v1/sys/health` and `/v1/sys/seal-status` answer as a Vault dev server's. */
  devServerStatus: boolean
  /**
   * The status of bad input the real service answers as an internal error (500): `400` (the spec: bad input
   * never gives a 5xx) or `'real'`, the real service's status, for clients whose retry and alerting logic
   * branches on 5xx (docs/limits-and-differences.md, "Deliberate differences from the real services").
   */
  badInputStatus: 'real' | 400
  /**
   * Vault 1.21's listener check of every body against these JSON limits, before any handler; JSON errors
   * then carry the decoder's words (`listener-json-limits.ts`). Without: the reference's `error parsing JSON`.
   */
  listenerJsonLimits?: JsonLimits
  /**
   * Whether `config/client` takes newer Vault's fields, which the spec does not have: Vault 1.17's plugin
   * workload identity (`role_arn`, `identity_token_audience`, `identity_token_ttl`) and 1.19's automated
   * rotation (`rotation_schedule`, `rotation_window`, `rotation_period`, `disable_automated_rotation`),
   * refused where the community edition refuses them.
   */
  newerClientConfig: boolean
}

interface CredentialEnv {
  accessKey: readonly string[]
  secretKey: readonly string[]
  sessionToken: readonly string[]
}

const AUTH_PROFILES: Record<ProfileName, AuthProfile> = {
  service: {
    serverIdHeader: 'X-Service-Cloud-IAM-Server-ID',
    mounts: ['cloud'],
    credentialEnv: { accessKey: ['CLOUD_ACCESS_KEY'], secretKey: ['CLOUD_SECRET_KEY'], sessionToken: ['CLOUD_SESSION_TOKEN'] },
    acceptsSha1Signatures: false,
    vaultOpenApi: false,
    devServerStatus: false,
    badInputStatus: 400,
    newerClientConfig: false,
  },
  vault: {
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
    listenerJsonLimits: VAULT_LISTENER_JSON_LIMITS,
    newerClientConfig: true,
  },
}

/** The auth method's settings under a profile. */
export function authProfile(profile: Pick<Profile, 'name'>): AuthProfile {
  return AUTH_PROFILES[profile.name]
}

/** The status a profile answers bad input with where the real service answers a 500 (scenarios read it). */
export function badInputStatusCode(profile: Pick<Profile, 'name'>): number {
  const { badInputStatus } = authProfile(profile)
  return badInputStatus === 'real' ? 500 : badInputStatus
}
