/** What the login takes from a GetCallerIdentity answer. */
export interface CallerIdentityResult {
  arn: string
  userId: string
  account: string
}

type FieldName = 'Arn' | 'UserId' | 'Account'

/** Each field as an element with text, or as an empty element; compiled once, not per login. */
const FIELD_PATTERNS = Object.fromEntries(
  (['Arn', 'UserId', 'Account'] as const).map((name) => [
    name,
    {
      element: new RegExp(`<((?:[\\w.-]+:)?)${name}(?:\\s[^>]*)?>([^<]*)</\\1${name}>`),
      empty: new RegExp(`<(?:[\\w.-]+:)?${name}(?:\\s[^>]*)?/>`),
    },
  ]),
) as Record<FieldName, { element: RegExp; empty: RegExp }>

/**
 * Reads the first `GetCallerIdentityResult` of an STS answer the way the real service's XML decoder does:
 * the trimmed body must start with `<GetCallerIdentityResponse` or `<?xml`, the root element must be
 * `GetCallerIdentityResponse` (any namespace), and the result element must exist. Undefined when it
 * cannot be read.
 */
export function parseCallerIdentityResponse(body: string): CallerIdentityResult | undefined {
  const text = body.trim()
  if (!text.startsWith('<GetCallerIdentityResponse') && !text.startsWith('<?xml')) return undefined
  const withoutProlog = text.replace(/^<\?xml[^>]*\?>/, '').replace(/^(\s|<!--[\s\S]*?-->)+/, '')
  const root = /^<((?:[\w.-]+:)?GetCallerIdentityResponse)(?=[\s/>])[^>]*>/.exec(withoutProlog)
  if (!root) return undefined
  const closing = `</${root[1]}>`
  const end = withoutProlog.lastIndexOf(closing)
  if (end < 0) return undefined
  const inner = withoutProlog.slice(root[0].length, end)
  const result = /<((?:[\w.-]+:)?)GetCallerIdentityResult(?:\s[^>]*)?>([\s\S]*?)<\/\1GetCallerIdentityResult>/.exec(inner)
  if (!result) return undefined
  const field = (name: FieldName): string | undefined => {
    const match = FIELD_PATTERNS[name].element.exec(result[2]!)
    if (match) return decodeEntities(match[2]!)
    return FIELD_PATTERNS[name].empty.test(result[2]!) ? '' : undefined
  }
  if (/<(?![/!?]|[\w.:-]+[\s/>])/.test(inner)) return undefined
  return { arn: field('Arn') ?? '', userId: field('UserId') ?? '', account: field('Account') ?? '' }
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" }

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-fA-F]+|#\d+|\w+);/g, (whole, entity: string) => {
    if (!entity.startsWith('#')) return ENTITIES[entity] ?? whole
    const code = entity.startsWith('#x') ? parseInt(entity.slice(2), 16) : Number(entity.slice(1))
    return code <= 0x10ffff ? String.fromCodePoint(code) : whole
  })
}
