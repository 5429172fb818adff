/**
 * A profile is data the services read, never a name they branch on. `service` uses the spec's names;
 * `vault` also accepts Vault's, so existing Vault clients and set-ups work against doppel unchanged. The
 * core keeps what more than one service reads: the name, and the headers that carry a token (the control
 * API and the auth method read tokens alike). What only the auth method reads (its mounts, its server-id
 * header, its credential variables, its SHA-1 rule, its OpenAPI path, its bad-input status) is the auth
 * method's own: `services/cloud-auth/auth-profile.ts`.
 */
export interface Profile {
  name: ProfileName
  /** Headers that carry a management token, lower-case, in order of preference. */
  tokenHeaders: string[]
}

export type ProfileName = 'service' | 'vault'

export const SERVICE_PROFILE: Profile = {
  name: 'service',
  tokenHeaders: ['x-service-token'],
}

export const VAULT_PROFILE: Profile = {
  name: 'vault',
  tokenHeaders: ['x-vault-token', 'x-service-token'],
}

/** Every profile, for rules that hold whichever is active (redaction of every token header). */
export const PROFILES: readonly Profile[] = [SERVICE_PROFILE, VAULT_PROFILE]

export function getProfile(name: string | undefined): Profile {
  if (name === undefined || name === 'service') return SERVICE_PROFILE
  if (name === 'vault') return VAULT_PROFILE
  throw new RangeError(`Failed to choose a profile: "${name}" is not one of service, vault`)
}
