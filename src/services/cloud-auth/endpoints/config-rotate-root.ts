/**
 * `config/rotate-root` (docs/reference/cloud-auth.md §3.2): replaces config/client's access key with a new one of the same
 * IAM user, through the provider's IAM (`iam_endpoint`), acting as the stored keys.
 */
import { MESSAGES } from '../auth-messages.ts'
import { cloudErrorText } from '../provider/provider-client.ts'
import { providerCalls } from '../provider/index.ts'
import type { Endpoint, OperationInput, OperationResult } from '../routing/endpoint.ts'
import { AuthRefusal, BAD_INPUT_500 } from '../auth-refusal.ts'

async function rotate({ context, state }: OperationInput): Promise<OperationResult> {
  const config = state.clientConfig
  if (!config) throw new AuthRefusal(MESSAGES.rotateClientUnset)
  if (config.access_key === '') throw new AuthRefusal(MESSAGES.rotateAccessKeyUnset)
  if (config.secret_key === '') throw new AuthRefusal(MESSAGES.rotateSecretKeyUnset)
  const provider = providerCalls(context, state)
  const oldCredentials = { accessKeyId: config.access_key, secretAccessKey: config.secret_key }
  const providerError = (error: unknown) => cloudErrorText(context.emulator, error)

  let userName: string
  try {
    userName = (await provider.getUser(oldCredentials)).name
  } catch (error) {
    throw new AuthRefusal(MESSAGES.rotateGetUser(providerError(error)), BAD_INPUT_500)
  }
  if (!userName) throw new AuthRefusal(MESSAGES.rotateNilUserName, BAD_INPUT_500)

  let created: { accessKeyId: string; secretAccessKey: string }
  try {
    created = await provider.createAccessKey(oldCredentials, userName)
  } catch (error) {
    throw new AuthRefusal(MESSAGES.rotateCreateAccessKey(providerError(error)), BAD_INPUT_500)
  }
  state.clientConfig = { ...config, access_key: created.accessKeyId, secret_key: created.secretAccessKey }

  // @note As in the real service, the new key stays stored when deleting the old one fails.
  try {
    await provider.deleteAccessKey(oldCredentials, config.access_key, userName)
  } catch (error) {
    throw new AuthRefusal(MESSAGES.rotateDeleteOldKey(config.access_key, providerError(error)), BAD_INPUT_500)
  }
  return { data: { access_key: created.accessKeyId } }
}

/** `config/rotate-root`: POST/PUT only. */
export const configRotateRoot: Endpoint = {
  path: 'config/rotate-root',
  fields: {},
  operations: { update: rotate },
}
