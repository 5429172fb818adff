/**
 * `/v1/sys/init` of a Vault dev server (the vault profile), unauthenticated: a read says the server is
 * initialised; a write is answered as Vault 1.21.4 answers it once initialised (http/sys_init.go,
 * vault/init.go): the body decoded into its `InitRequest` as Go decodes a struct (the first type error, by
 * the field's name), the recovery-key fields refused for a Shamir seal, the seal's configuration checked,
 * and then `Vault is already initialized`. Every answer is Vault's handler's own: `{"errors":[…]}`
 * unwrapped, 405 with none for another method.
 */
import { explainResponse } from '../../core/explanation.ts'
import { authProfile } from './auth-profile.ts'
import { statusAnswer } from './dev-server-status.ts'
import { authError } from './envelope.ts'
import { GoJsonNumber, listenedJson } from './request-body.ts'
import type { RequestRoute } from './routing/api-route.ts'

type GoFieldType = 'int' | 'string' | '[]string'

/** `InitRequest`'s fields by their JSON names, in declaration order. */
const INIT_FIELDS: Readonly<Record<string, GoFieldType>> = {
  secret_shares: 'int',
  secret_threshold: 'int',
  stored_shares: 'int',
  pgp_keys: '[]string',
  recovery_shares: 'int',
  recovery_threshold: 'int',
  recovery_pgp_keys: '[]string',
  root_token_pgp_key: 'string',
}

const INT64_MIN = -(2n ** 63n)
const INT64_MAX = 2n ** 63n - 1n

export const SYS_INIT_ROUTE: RequestRoute = {
  path: 'sys/init',
  reads: 'request',
  token: 'none',
  profile: (profile) => authProfile(profile).devServerStatus,
  describe: {
    get: { summary: 'Whether the server is initialised, as a Vault dev server answers it', answers: { '200': 'Initialised' }, bare: true },
    put: { summary: 'Initialise the server: a dev server is already initialised', answers: { '400': 'Vault is already initialized, or the body is refused' }, bare: true },
  },
  async run({ request }) {
    if (request.method === 'GET') return statusAnswer(200, { initialized: true })
    if (request.method !== 'PUT' && request.method !== 'POST') return authError(405)
    const refusal = await initRefusal(request)
    return explainResponse(authError(400, refusal), { rule: 'sys/init on an initialised server', seen: refusal, hint: 'a dev server starts initialised and unsealed' })
  },
}

/** What Vault answers a write with, in its order: the body, the seal's parameters, the server's state. */
async function initRefusal(request: Request): Promise<string> {
  const read = await listenedJson(request)
  if ('error' in read) return `failed to parse JSON input: ${read.error}`
  const decoded = decodeInitRequest(read.value)
  if ('error' in decoded) return `failed to parse JSON input: ${decoded.error}`
  const { fields } = decoded
  const nonZero = (name: string) => fields[name] instanceof GoJsonNumber && BigInt(fields[name].text) !== 0n
  const recoveryFlags = [
    ...(nonZero('recovery_shares') ? ['recovery_shares'] : []),
    ...(nonZero('recovery_threshold') ? ['recovery_threshold'] : []),
    ...((fields.recovery_pgp_keys as unknown[] | undefined)?.length ? ['recovery_pgp_keys'] : []),
  ]
  if (recoveryFlags.length > 0) return `parameters ${recoveryFlags.join(',')} not applicable to seal type shamir`
  // core.Initialize checks the seal's configuration before it asks whether the server is initialised.
  const shares = intField(fields, 'secret_shares')
  const threshold = intField(fields, 'secret_threshold')
  const pgpKeys = (fields.pgp_keys as unknown[] | undefined)?.length ?? 0
  if (pgpKeys > 0 && pgpKeys !== shares) return 'incorrect number of PGP keys'
  const invalid = sealConfigError(shares, threshold)
  if (invalid) return `invalid seal configuration: ${invalid}`
  return 'Vault is already initialized'
}

const intField = (fields: Record<string, unknown>, name: string) => (fields[name] instanceof GoJsonNumber ? Number(fields[name].text) : 0)

/**
 * `SealConfig.Validate` of a Shamir seal's shares and threshold (vault/seal_config.go). The PGP keys' own
 * contents are not read: doppel parses no OpenPGP, and answers keys in the right number as valid ones.
 */
function sealConfigError(shares: number, threshold: number): string | undefined {
  if (shares < 1) return 'shares must be at least one'
  if (threshold < 1) return 'threshold must be at least one'
  if (shares > 1 && threshold === 1) return 'threshold must be greater than one for multiple shares'
  if (shares > 255) return 'shares must be less than 256'
  if (threshold > 255) return 'threshold must be less than 256'
  if (threshold > shares) return 'threshold cannot be larger than shares'
  return undefined
}

/**
 * A JSON value decoded into `InitRequest` as Go's decoder does: keys matched exactly, else without case
 * (Go's folding), unknown keys skipped, `null` leaving a field as it is, and the first type error kept
 * while the rest goes on being assigned.
 */
function decodeInitRequest(value: unknown): { fields: Record<string, unknown> } | { error: string } {
  const fields: Record<string, unknown> = {}
  if (value === undefined || value === null) return { fields }
  if (typeof value !== 'object' || Array.isArray(value)) return { error: `json: cannot unmarshal ${kindOf(value)} into Go value of type http.InitRequest` }
  let error: string | undefined
  for (const [key, item] of Object.entries(value)) {
    const name = fieldName(key)
    if (name === undefined || item === null) continue
    const type = INIT_FIELDS[name]!
    const refused = typeError(item, type)
    if (refused) {
      error ??= `json: cannot unmarshal ${refused.kind} into Go struct field InitRequest.${name} of type ${refused.type}`
      continue
    }
    fields[name] = item
  }
  return error ? { error } : { fields }
}

/** The field a key decodes into: its exact name, else the one it equals under Go's case folding. */
function fieldName(key: string): string | undefined {
  if (Object.hasOwn(INIT_FIELDS, key)) return key
  // The names are ASCII: a key matches one when each character folds to the name's (ſ to s, the Kelvin sign to k).
  const folded = key.replace(/[A-Z]/g, (char) => char.toLowerCase()).replaceAll('ſ', 's').replaceAll('\u212a', 'k')
  return Object.hasOwn(INIT_FIELDS, folded) ? folded : undefined
}

/** Why a JSON value does not decode into a field of the type, as Go names the value and the type. */
function typeError(value: unknown, type: GoFieldType): { kind: string; type: string } | undefined {
  if (type === '[]string') {
    if (!Array.isArray(value)) return { kind: kindOf(value), type }
    const element = value.find((item) => item !== null && typeof item !== 'string')
    return element === undefined ? undefined : { kind: kindOf(element), type: 'string' }
  }
  if (type === 'string') return typeof value === 'string' ? undefined : { kind: kindOf(value), type }
  if (!(value instanceof GoJsonNumber)) return { kind: kindOf(value), type }
  // strconv.ParseInt of the literal: an integer in int64's range, or the number named with its text.
  const integer = /^-?\d+$/.test(value.text) ? BigInt(value.text) : undefined
  return integer !== undefined && integer >= INT64_MIN && integer <= INT64_MAX ? undefined : { kind: `number ${value.text}`, type }
}

/** Go's name for a JSON value's kind in a type error. */
function kindOf(value: unknown): string {
  if (value instanceof GoJsonNumber) return 'number'
  if (Array.isArray(value)) return 'array'
  if (typeof value === 'string') return 'string'
  if (typeof value === 'boolean') return 'bool'
  return 'object'
}
