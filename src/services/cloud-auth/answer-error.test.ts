import { describe, expect, it } from 'vitest'
import { SERVICE_PROFILE, VAULT_PROFILE } from '../../core/profile.ts'
import { authProfile } from './auth-profile.ts'
import { answerError } from './answer-error.ts'
import { AuthRefusal, BAD_INPUT_500 } from './auth-refusal.ts'
import { FieldError } from './fields/index.ts'
import { LoginError } from './login/index.ts'
import { RenewError } from './tokens/renew-error.ts'

const answered = async (response: Response) => ({ status: response.status, body: await response.text() })

// Most answers are asserted byte for byte through the service (test/cloud-auth/*); the 500s cannot be
// reached there without a bug, so their two shapes are pinned here.
describe('the auth service edge: one mapper from a thrown error to the answer', () => {
  it('answers a refusal with its status and message, wherever it was thrown', async () => {
    expect(await answered(answerError(new LoginError('permission denied', 403), 'login', authProfile(SERVICE_PROFILE)))).toEqual({
      status: 403,
      body: '{"errors":["permission denied"]}\n',
    })
    expect(await answered(answerError(new RenewError('role mismatch'), 'authenticated', authProfile(SERVICE_PROFILE)))).toEqual({
      status: 400,
      body: '{"errors":["role mismatch"]}\n',
    })
  })

  it('prefixes a field conversion error with "Field validation failed"', async () => {
    const { status, body } = await answered(answerError(new FieldError('ttl', [], 'no'), 'authenticated', authProfile(SERVICE_PROFILE)))
    expect(status).toBe(400)
    expect(JSON.parse(body)).toEqual({ errors: ['Field validation failed: error converting input for field "ttl": no'] })
  })

  it('answers any other error with a 500: bare on login, a multierror elsewhere', async () => {
    expect(await answered(answerError(new TypeError('boom'), 'login', authProfile(SERVICE_PROFILE)))).toEqual({ status: 500, body: '{"errors":["boom"]}\n' })
    expect(await answered(answerError(new TypeError('boom'), 'authenticated', authProfile(SERVICE_PROFILE)))).toEqual({
      status: 500,
      body: '{"errors":["1 error occurred:\\n\\t* boom\\n\\n"]}\n',
    })
  })

  it("answers bad input Vault answers with a 500 as 400 in the service profile, as Vault's 500 in the vault profile", async () => {
    const refusal = new AuthRefusal('invalid tag', BAD_INPUT_500)
    expect(await answered(answerError(refusal, 'authenticated', authProfile(SERVICE_PROFILE)))).toEqual({ status: 400, body: '{"errors":["invalid tag"]}\n' })
    expect(await answered(answerError(refusal, 'authenticated', authProfile(VAULT_PROFILE)))).toEqual({
      status: 500,
      body: '{"errors":["1 error occurred:\\n\\t* invalid tag\\n\\n"]}\n',
    })
    expect(await answered(answerError(new LoginError('missing role name', BAD_INPUT_500), 'login', authProfile(VAULT_PROFILE)))).toEqual({
      status: 500,
      body: '{"errors":["missing role name"]}\n',
    })
    // A refusal with one status answers it in both profiles.
    expect((await answered(answerError(new LoginError('permission denied', 403), 'login', authProfile(VAULT_PROFILE)))).status).toBe(403)
  })
})
