import { cloudErrors } from '../cloud-errors.ts'
import { formatBasicIso } from '../../../core/utc-date.ts'

/** What a SigV4-signed request claims, from its Authorization header or its query (docs/reference/fake-cloud.md §5.1, docs/reference/fake-cloud.md §5.2). */
export interface AuthMaterial {
  source: 'header' | 'query'
  credential: string
  accessKeyId: string
  scopeDate: string
  region: string
  service: string
  terminator: string
  /** `AWS4-HMAC-SHA256 … <requestTime>` uses this exact text. */
  requestTime: string
  requestMs: number
  signedHeaders: string
  signature: string
  sessionToken: string | undefined
}

const ALGORITHM = 'AWS4-HMAC-SHA256'
const QUERY_AUTH = ['X-Amz-Algorithm', 'X-Amz-Credential', 'X-Amz-Signature'] as const
const HEADER_PARAMS = ['Credential', 'Signature', 'SignedHeaders'] as const
const BASIC_ISO = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/

/** Finds and parses the auth material; throws the error AWS answers for missing or malformed parts. */
export function readAuthMaterial(url: URL, headers: Headers): AuthMaterial {
  const header = headers.get('authorization')
  // `searchParams` builds a URLSearchParams; a replayed login carries no query.
  const inQuery = url.search !== '' && QUERY_AUTH.some((name) => url.searchParams.has(name))
  if (header !== null && inQuery) {
    throw cloudErrors.incompleteSignature(
      'Only one auth mechanism allowed; only the X-Amz-Algorithm query parameter, Signature query string parameter or the Authorization header should be specified',
    )
  }
  if (header !== null) return fromHeader(header, headers)
  if (inQuery) return fromQuery(url.searchParams)
  throw cloudErrors.missingAuthentication()
}

function fromHeader(header: string, headers: Headers): AuthMaterial {
  const match = /^(\S+)\s*(.*)$/s.exec(header.trim())
  const algorithm = match?.[1] ?? ''
  const params = new Map<string, string>()
  for (const token of (match?.[2] ?? '').split(',')) {
    const part = token.trim()
    if (part === '') continue
    const eq = part.indexOf('=')
    if (eq < 0) throw cloudErrors.incompleteSignature(`'${part}' not a valid key=value pair (missing equal-sign) in Authorization header: '${header}'.`)
    params.set(part.slice(0, eq).trim(), part.slice(eq + 1).trim())
  }
  const amzDate = headers.get('x-amz-date')
  const date = headers.get('date')
  let missing = ''
  for (const name of HEADER_PARAMS) if (!params.get(name)) missing += `Authorization header requires '${name}' parameter. `
  if (amzDate === null && date === null) missing += "Authorization header requires existence of either a 'X-Amz-Date' or a 'Date' header. "
  if (missing !== '') throw cloudErrors.incompleteSignature(`${missing}Authorization=${header}`)
  if (algorithm !== ALGORITHM) throw cloudErrors.incompleteSignature(`Unsupported AWS 'algorithm': '${algorithm}'`)
  // The time is read before the credential, and the query's the other way round: which refusal comes first.
  const time = amzDate !== null ? basicIsoTime(amzDate) : httpDateTime(date!)
  return authMaterial('header', credentialParts(params.get('Credential')!), time, params.get('SignedHeaders')!, params.get('Signature')!, headers.get('x-amz-security-token') ?? undefined)
}

function fromQuery(query: URLSearchParams): AuthMaterial {
  const required = ['X-Amz-Algorithm', 'X-Amz-Credential', 'X-Amz-Signature', 'X-Amz-Date', 'X-Amz-SignedHeaders']
  if (required.some((name) => !query.get(name))) {
    throw cloudErrors.incompleteSignature(
      `AWS query-string parameters must include ${required.map((name) => `'${name}'`).join(', ')}. Re-examine the query-string parameters.`,
    )
  }
  const algorithm = query.get('X-Amz-Algorithm')!
  if (algorithm !== ALGORITHM) throw cloudErrors.incompleteSignature(`X-Amz-Algorithm only supports '${ALGORITHM}'`)
  return authMaterial(
    'query',
    credentialParts(query.get('X-Amz-Credential')!),
    basicIsoTime(query.get('X-Amz-Date')!),
    query.get('X-Amz-SignedHeaders')!,
    query.get('X-Amz-Signature')!,
    query.get('X-Amz-Security-Token') ?? undefined,
  )
}

type CredentialParts = Pick<AuthMaterial, 'credential' | 'accessKeyId' | 'scopeDate' | 'region' | 'service' | 'terminator'>
type RequestTime = Pick<AuthMaterial, 'requestTime' | 'requestMs'>

function credentialParts(credential: string): CredentialParts {
  const parts = credential.split('/')
  if (parts.length !== 5) {
    throw cloudErrors.incompleteSignature(
      `Credential must have exactly 5 slash-delimited elements, e.g. keyid/date/region/service/term, got '${credential}'`,
    )
  }
  const [accessKeyId, scopeDate, region, service, terminator] = parts as [string, string, string, string, string]
  return { credential, accessKeyId, scopeDate, region, service, terminator }
}

/** The material in one literal, without spreads: every signed request is checked on a login's path. */
function authMaterial(
  source: AuthMaterial['source'],
  credential: CredentialParts,
  time: RequestTime,
  signedHeaders: string,
  signature: string,
  sessionToken: string | undefined,
): AuthMaterial {
  const { accessKeyId, scopeDate, region, service, terminator } = credential
  return { source, credential: credential.credential, accessKeyId, scopeDate, region, service, terminator, requestTime: time.requestTime, requestMs: time.requestMs, signedHeaders, signature, sessionToken }
}

function basicIsoTime(text: string): RequestTime {
  const m = BASIC_ISO.exec(text)
  const ms = m ? Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!) : NaN
  if (!Number.isFinite(ms) || formatBasicIso(ms) !== text) {
    throw cloudErrors.incompleteSignature(`Date must be in ISO-8601 'basic format'. Got '${text}'. See http://en.wikipedia.org/wiki/ISO_8601`)
  }
  return { requestTime: text, requestMs: ms }
}

function httpDateTime(text: string): RequestTime {
  const ms = Date.parse(text)
  if (!Number.isFinite(ms)) {
    throw cloudErrors.incompleteSignature(`Date must be in ISO-8601 'basic format'. Got '${text}'. See http://en.wikipedia.org/wiki/ISO_8601`)
  }
  return { requestTime: formatBasicIso(ms), requestMs: ms }
}
