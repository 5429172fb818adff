import { checkJsonDepth, SERVICE_NESTING_LIMIT, NestingTooDeepError } from '../../../../core/bounded-parse.ts'
import { BAD_INPUT_500 } from '../../auth-refusal.ts'
import { LoginError } from '../login-error.ts'

/** The identity document fields the login reads (docs/reference/cloud-auth.md §4, "Identity document fields used"). */
export interface IdentityDocument {
  instanceId: string
  imageId: string
  accountId: string
  region: string
  pendingTime: string
}

/** The string fields by their lower-cased names: Go matches a key to a field without regard to case. */
const STRING_FIELDS = new Map<string, keyof IdentityDocument>(
  (['instanceId', 'imageId', 'accountId', 'region', 'pendingTime'] as const).map((name) => [name.toLowerCase(), name]),
)

/**
 * Decodes the document as the real service does (Go's non-strict JSON decoder into a struct of strings
 * plus a `tags` map): unknown keys are ignored, `null` leaves a field empty, a wrong type is an error.
 * Error texts follow Go's `encoding/json`.
 */
export function parseIdentityDocument(bytes: Buffer): IdentityDocument {
  const value = decodeFirstJsonValue(bytes.toString('utf8'))
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    if (value === null) return { instanceId: '', imageId: '', accountId: '', region: '', pendingTime: '' }
    throw new LoginError(`json: cannot unmarshal ${goJsonKind(value)} into Go value of type awsauth.identityDocument`, BAD_INPUT_500)
  }
  const record = value as Record<string, unknown>
  const document: IdentityDocument = { instanceId: '', imageId: '', accountId: '', region: '', pendingTime: '' }
  for (const [key, field] of Object.entries(record)) {
    const lower = key.toLowerCase()
    const name = STRING_FIELDS.get(lower)
    if (name !== undefined) {
      if (field === null) continue
      if (typeof field !== 'string') {
        throw new LoginError(`json: cannot unmarshal ${goJsonKind(field)} into Go struct field identityDocument.${name} of type string`, BAD_INPUT_500)
      }
      document[name] = field
    } else if (lower === 'tags' && field !== null && (typeof field !== 'object' || Array.isArray(field))) {
      throw new LoginError(`json: cannot unmarshal ${goJsonKind(field)} into Go struct field identityDocument.tags of type map[string]interface {}`, BAD_INPUT_500)
    }
  }
  return document
}

/** The first JSON value of the text, as Go's stream decoder reads it (trailing text is not looked at). */
function decodeFirstJsonValue(text: string): unknown {
  if (text.trim() === '') throw new LoginError('EOF', BAD_INPUT_500)
  try {
    checkJsonDepth(text, SERVICE_NESTING_LIMIT)
    return JSON.parse(text)
  } catch (error) {
    if (error instanceof NestingTooDeepError) throw new LoginError('exceeded max depth', BAD_INPUT_500)
    const message = (error as Error).message
    const trailing = /Unexpected non-whitespace character after JSON at position (\d+)/.exec(message)
    if (trailing) return JSON.parse(text.slice(0, Number(trailing[1])))
    if (/Unexpected end of JSON input|Unterminated string/.test(message)) throw new LoginError('unexpected EOF', BAD_INPUT_500)
    const position = /position (\d+)/.exec(message)
    const at = position ? Number(position[1]) : text.search(/\S/)
    const character = text[at] ?? ''
    const where = at === text.search(/\S/) ? 'looking for beginning of value' : 'in literal or value'
    throw new LoginError(`invalid character ${goCharQuote(character)} ${where}`, BAD_INPUT_500)
  }
}

function goCharQuote(character: string): string {
  if (character === "'") return "'\\''"
  if (character === '"') return `'"'`
  return `'${character}'`
}

function goJsonKind(value: unknown): string {
  if (Array.isArray(value)) return 'array'
  if (typeof value === 'object') return 'object'
  return typeof value
}
