/**
 * `config/rotate-root` (reference §3.2): replaces config/client's access key with a new one of the same
 * IAM user, through the provider's IAM (`iam_endpoint`), acting as the stored keys.
 */
import { MESSAGES } from '../messages.ts'
import { cloudErrorText } from '../provider-client.ts'
import { providerCalls } from '../provider/index.ts'
import type { Endpoint, OperationInput, OperationResult } from '../routing/endpoint.ts'
import { ServiceError } from '../service-error.ts'

async function rotate({ context, state }: OperationInput): Promise<OperationResult> {
  const config = state.clientConfig
  if (!config) throw new ServiceError(MESSAGES.rotateClientUnset)
  if (config.access_key === '') throw new ServiceError(MESSAGES.rotateAccessKeyUnset)
  if (config.secret_key === '') throw new ServiceError(MESSAGES.rotateSecretKeyUnset)
  const provider = providerCalls(context, state)
  const oldCredentials = { accessKeyId: config.access_key, secretAccessKey: config.secret_key }
  const providerError = (error: unknown) => cloudErrorText(context.emulator, error)

  let userName: string
  try {
    userName = (await provider.getUser(oldCredentials)).name
  } catch (error) {
    throw new ServiceError(MESSAGES.rotateGetUser(providerError(error)))
  }
  if (!userName) throw new ServiceError(MESSAGES.rotateNilUserName)

  let created: { accessKeyId: string; secretAccessKey: string }
  try {
    created = await provider.createAccessKey(oldCredentials, userName)
  } catch (error) {
    throw new ServiceError(MESSAGES.rotateCreateAccessKey(providerError(error)))
  }
  state.clientConfig = { ...config, access_key: created.accessKeyId, secret_key: created.secretAccessKey }

  // @note As in the real service, the new key stays stored when deleting the old one fails.
  try {
    await provider.deleteAccessKey(oldCredentials, config.access_key, userName)
  } catch (error) {
    throw new ServiceError(MESSAGES.rotateDeleteOldKey(config.access_key, providerError(error)))
  }
  return { data: { access_key: created.accessKeyId } }
}

/** `config/rotate-root`: POST/PUT only. */
export const configRotateRoot: Endpoint = {
  pattern: /^config\/rotate-root$/,
  fields: {},
  operations: { update: rotate },
}
