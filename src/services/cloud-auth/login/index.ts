import type { RequestContext } from '../../../core/glossary.ts'
import { authResponse } from '../envelope.ts'
import { unknownFields } from '../fields/index.ts'
import { authState } from '../state.ts'
import { ec2Login } from './ec2/ec2-login.ts'
import { iamLogin } from './iam/iam-login.ts'
import { LOGIN_SCHEMA, readLoginInput, type LoginInput, type LoginResult } from './login-input.ts'
import { LoginError } from './login-error.ts'
import { LOGIN_MESSAGES } from './login-messages.ts'
import { MESSAGES } from '../auth-messages.ts'

export { LoginError } from './login-error.ts'
export { LOGIN_MESSAGES } from './login-messages.ts'

/**
 * `POST|PUT /v1/auth/<mount>/login` (unauthenticated): converts the fields, picks the ec2 or iam flow by
 * which fields are present, and answers with the `auth` envelope. A refusal is thrown (a `LoginError`
 * or a `FieldError`) and answered by the service's edge. Unknown fields add the real service's "ignored
 * parameters" warning to a success.
 *
 * @example
 * const response = await handleLogin(context, 'cloud', { pkcs7: document, nonce: 'n-1' })
 */
export async function handleLogin(context: RequestContext, mount: string, data: Record<string, unknown>): Promise<Response> {
  const result = await login(context, mount, data)
  const ignored = unknownFields(LOGIN_SCHEMA, data)
  const warnings = ignored.length > 0 ? [MESSAGES.ignoredParameters(ignored), ...result.warnings] : result.warnings
  return authResponse(context, { auth: result.auth, warnings })
}

async function login(context: RequestContext, mount: string, data: Record<string, unknown>): Promise<LoginResult> {
  const input = readLoginInput(data)
  const state = authState(context.emulator, mount)
  const ec2 = isEc2Login(input)
  const iam = isIamLogin(input)
  if (ec2 && iam) throw new LoginError(LOGIN_MESSAGES.bothTypes)
  if (ec2) return ec2Login(context, state, input)
  if (iam) return iamLogin(context, state, input)
  throw new LoginError(LOGIN_MESSAGES.noAuthValues)
}

/** `pkcs7`, or both `identity` and `signature`, present (values may be empty). */
function isEc2Login(input: LoginInput): boolean {
  return input.present.has('pkcs7') || (input.present.has('identity') && input.present.has('signature'))
}

/**
 * The method, URL and headers present, and the body unless the method is exactly `GET` (Vault's
 * builtin/credential/aws path_login.go, hasValuesForIamAuth): a POST without a body is no iam login at all,
 * so it gets "didn't supply required authentication values", as the real method answered.
 */
function isIamLogin(input: LoginInput): boolean {
  const present = ['iam_http_request_method', 'iam_request_url', 'iam_request_headers'].every((name) => input.present.has(name))
  return present && (input.iamMethod === 'GET' || input.present.has('iam_request_body'))
}
