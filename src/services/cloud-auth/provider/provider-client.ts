/**
 * The auth service's own identity toward the cloud provider (docs/reference/cloud-auth.md §3.1, docs/reference/cloud-auth.md §3.5): which credentials it
 * acts as, and which it uses for a call about a given account.
 */
import type { Emulator } from '../../../core/emulator.ts'
import type { RequestContext } from '../../../core/glossary.ts'
import { getFakeCloud, CloudError, type AwsCredentials } from '../../fake-cloud/index.ts'
import { goQuote } from '../../../core/go/go-format.ts'
import { providerCalls } from './index.ts'
import { UpstreamCloudError } from './remote-provider.ts'
import type { AuthState } from '../state.ts'
import { errorKind } from '../../../core/doppel-error.ts'
import { authProfile } from '../auth-profile.ts'
import { cloudAuthOptions } from '../options.ts'

/** The service cannot get credentials for a provider call; the message is the real service's. */
class ProviderClientError extends errorKind('ProviderClientError', 'DOPPEL_PROVIDER_CREDENTIALS') {}

const HALF_CONFIGURED =
  "static AWS client credentials haven't been properly configured (the access key or secret key were provided but not both)"

/** The session length the SDK's assume-role provider asks for: 15 minutes. */
const ASSUME_ROLE_SECONDS = 900

/**
 * The base credentials: config/client's keys when both are set; the profile's credential environment
 * variables (`CLOUD_*`, or Vault's `AWS_*`) when both keys are set; else the fake cloud's default service
 * identity.
 */
function serviceCredentials(context: RequestContext, state: AuthState): AwsCredentials {
  const config = state.clientConfig
  const accessKey = config?.access_key ?? ''
  const secretKey = config?.secret_key ?? ''
  if (accessKey !== '' && secretKey !== '') return { accessKeyId: accessKey, secretAccessKey: secretKey }
  if (accessKey !== '' || secretKey !== '') throw new ProviderClientError(HALF_CONFIGURED)
  const env = cloudAuthOptions(context.emulator).env ?? process.env
  const read = (names: readonly string[]) => names.map((name) => env[name]).find(Boolean)
  const { accessKey: accessKeyNames, secretKey: secretKeyNames, sessionToken: tokenNames } = authProfile(context.profile).credentialEnv
  const envAccessKey = read(accessKeyNames)
  const envSecretKey = read(secretKeyNames)
  if (envAccessKey && envSecretKey) {
    const sessionToken = read(tokenNames)
    return { accessKeyId: envAccessKey, secretAccessKey: envSecretKey, ...(sessionToken && { sessionToken }) }
  }
  return getFakeCloud(context.emulator).defaultServiceCredentials()
}

/**
 * Credentials for a provider call about `accountId`: a config/sts role for that account is assumed with
 * the base credentials; otherwise the base credentials serve only their own account (learned once per
 * mount through GetCallerIdentity, until config/client changes): the call that learns it refuses another
 * account with "unable to fetch client …", later calls with "no STS configuration found …".
 */
export async function credentialsForAccount(context: RequestContext, state: AuthState, accountId: string): Promise<AwsCredentials> {
  const base = serviceCredentials(context, state)
  const provider = providerCalls(context, state)
  const sts = state.stsRoles.get(accountId)
  if (sts) {
    // Like the real service's cached clients, an assumed session is reused until it expires.
    const sessions = state.assumedSessions
    const key = [base.accessKeyId, sts.sts_role, sts.external_id].join('\n')
    const cached = sessions.get(key)
    const now = context.emulator.clock.nowMs()
    if (cached && Date.parse(cached.expiration) > now) return cached
    try {
      const session = await provider.assumeRole(base, {
        roleArn: sts.sts_role,
        sessionName: String(BigInt(now) * 1_000_000n),
        durationSeconds: ASSUME_ROLE_SECONDS,
        ...(sts.external_id !== '' && { externalId: sts.external_id }),
      })
      sessions.set(key, session)
      return session
    } catch (error) {
      throw new ProviderClientError(cloudErrorText(context.emulator, error))
    }
  }
  // Once the default account is known, another account without config/sts is refused before any client is
  // made (Vault's builtin/credential/aws client.go, stsRoleForAccount; seen on a real server).
  if (state.defaultAccountId !== undefined && state.defaultAccountId !== accountId) {
    throw new ProviderClientError(`no STS configuration found for account ID ${goQuote(accountId)}`)
  }
  if (state.defaultAccountId === undefined) {
    try {
      state.defaultAccountId = (await provider.getCallerIdentity(base)).account
    } catch (error) {
      throw new ProviderClientError(`unable to fetch current caller: ${cloudErrorText(context.emulator, error)}`)
    }
  }
  if (state.defaultAccountId !== accountId) {
    throw new ProviderClientError(
      `unable to fetch client for account ID ${goQuote(accountId)} -- default client is for account ${goQuote(state.defaultAccountId)}`,
    )
  }
  return base
}


/**
 * A provider error as the real service prints it (the Go SDK's form):
 * `<Code>: <Message>\n\tstatus code: <n>, request id: <id>`, the id of the answer it came from (drawn for
 * an in-process call). Other errors print their message.
 */
export function cloudErrorText(emulator: Emulator, error: unknown): string {
  if (error instanceof CloudError) {
    const requestId = error instanceof UpstreamCloudError && error.requestId !== undefined ? error.requestId : emulator.random.uuid()
    return `${error.code}: ${error.message}\n\tstatus code: ${error.status}, request id: ${requestId}`
  }
  return error instanceof Error ? error.message : String(error)
}
