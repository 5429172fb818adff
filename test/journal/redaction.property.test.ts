import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { parse as parseYaml } from 'yaml'
import { createDoppel } from '../../src/features/doppel/index.ts'
import { redactBodyText, redactHeaderValue } from '../../src/services/control/index.ts'

// The journal's redaction reads any text (a body cut anywhere, binary read as text): it never throws, and a
// secret planted under a secret name in JSON, XML, a form or a `name: value` line never survives it.

const secret = fc.stringMatching(/^[A-Za-z0-9/+]{16,40}$/)
const noise = fc.string({ maxLength: 200 })

describe('redactBodyText', () => {
  it('never throws, whatever the text', () => {
    fc.assert(fc.property(fc.string({ maxLength: 2000 }), fc.string({ maxLength: 40 }), (text, path) => {
      expect(typeof redactBodyText(text, path)).toBe('string')
    }))
  })

  it('hides a secret under a secret name in each format, also in a body cut short after it', () => {
    const forms = [
      (s: string) => `{"SecretAccessKey":"${s}","x":1}`,
      (s: string) => `{"auth":{"client_token":"${s}"}}`,
      (s: string) => `<SessionToken>${s}</SessionToken>`,
      (s: string) => `Action=AssumeRole&X-Amz-Security-Token=${s}&Version=1`,
      (s: string) => `fixtures:\n  token: ${s}\n`,
    ]
    fc.assert(fc.property(noise, secret, noise, fc.integer({ min: 0, max: forms.length - 1 }), (before, value, after, form) => {
      const body = forms[form]!(value)
      const text = `${before.replace(/[<>"&=:\n]/g, '')}\n${body}\n${after.replace(/[<>"&=:\n]/g, '')}`
      expect(redactBodyText(text, '/x')).not.toContain(value)
    }))
  })

  it('shortens a SigV4 signature to 8 characters and hides other credentials', () => {
    fc.assert(fc.property(fc.stringMatching(/^[0-9a-f]{64}$/), (signature) => {
      const header = `AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20260301/us-east-1/sts/aws4_request, SignedHeaders=host;x-amz-date, Signature=${signature}`
      expect(redactHeaderValue('Authorization', header)).toBe(header.replace(signature, `${signature.slice(0, 8)}…`))
    }))
    expect(redactHeaderValue('Authorization', 'Bearer s3cret')).toBe('Bearer <redacted>')
  })
})

// The limit bounds what an entry holds: the body's first bytes as received. Redaction runs when the entry is
// read, and its markers may make that reading longer than the limit (`&00 -]` reads `&00 <redacted>`).
describe('the journal keeps at most the body limit, whatever the body', () => {
  it('for any text or bytes', async () => {
    const doppel = createDoppel({ journalBodyLimit: 64 })
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.string({ maxLength: 300, size: 'max' }), fc.uint8Array({ maxLength: 300, size: 'max' })), async (body) => {
        await doppel.fetch('http://doppel.test/_doppel/clock', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body })
        const entry = doppel.journal.entries().at(-1)!
        const bytes = Buffer.from(body)
        let text: string | undefined
        try {
          text = new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(0, 64), { stream: true })
        } catch {
          text = undefined
        }
        if (text === undefined) {
          // Not UTF-8: kept as its size.
          expect(entry.request.body).toBe(`<${bytes.length} bytes of application/json>`)
        } else {
          expect(entry.request.body).toBe(redactBodyText(text, '/_doppel/clock'))
          expect(entry.request.truncated).toBe(bytes.length > 64)
        }
      }),
      { numRuns: 100 },
    )
    // A failing seed's body: kept whole (56 bytes), read with its anchored value redacted (65 bytes).
    const anchored = '                &00 -]                                  '
    await doppel.fetch('http://doppel.test/_doppel/clock', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: anchored })
    expect(doppel.journal.entries().at(-1)!.request).toMatchObject({ body: redactBodyText(anchored, '/_doppel/clock'), truncated: false })
    expect(doppel.journal.entries().at(-1)!.request.body).toContain('&00 <redacted>')
    await doppel.fetch('http://doppel.test/_doppel/clock', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: new Uint8Array(100).fill(0xff) })
    expect(doppel.journal.entries().at(-1)!.request.body).toBe('<100 bytes of application/json>')
  })
})

// The corpus: every form a login's signed headers and a fixture's secrets may take in a body the journal
// keeps, each also cut anywhere (the journal's body limit). Whatever the form, no 12 characters in a row of
// a planted secret survive, read as written, JSON- or URL-unescaped, or base64-decoded.

/** The text as written, unescaped (JSON, URL) and with every base64 run decoded: where a secret could still hide. */
function readings(text: string): string {
  const unescaped = text.replace(/\\u([0-9a-fA-F]{4})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))).replace(/\\(.)/g, '$1')
  const urlDecoded = unescaped.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => {
    try {
      return decodeURIComponent(run)
    } catch {
      return run
    }
  })
  const decoded = [...`${unescaped}\n${urlDecoded}`.matchAll(/[A-Za-z0-9+/]{16,}={0,2}/g)].map(([run]) => Buffer.from(run, 'base64').toString('latin1'))
  return [text, unescaped, urlDecoded, ...decoded].join('\n')
}

/** Whether 12 characters in a row of `secret` appear in `text` (a cut body may keep a secret's start). */
function leaks(text: string, secret: string): string | undefined {
  for (let i = 0; i + 12 <= secret.length; i++) if (text.includes(secret.slice(i, i + 12))) return secret.slice(i, i + 12)
  return undefined
}

const token = fc.stringMatching(/^[A-Za-z0-9/+]{24,80}$/)
const signature = fc.stringMatching(/^[0-9a-f]{64}$/)
/** A header name as a client may spell it. */
const spelling = (name: string) => fc.constantFrom(name, name.toLowerCase(), name.toUpperCase())
const escapeAll = (text: string) => `"${[...text].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')}"`

type HeaderForm = (headers: [string, string][], rest: Record<string, string>) => string
const json = (rest: Record<string, string>, field: string) => `{${[...Object.entries(rest).map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`), field].join(',')}}`
const HEADER_FORMS: Record<string, HeaderForm> = {
  'base64 JSON': (h, r) => json(r, `"iam_request_headers":${JSON.stringify(Buffer.from(JSON.stringify(Object.fromEntries(h))).toString('base64'))}`),
  object: (h, r) => json(r, `"iam_request_headers":${JSON.stringify(Object.fromEntries(h))}`),
  'object of lists': (h, r) => json(r, `"iam_request_headers":${JSON.stringify(Object.fromEntries(h.map(([k, v]) => [k, [v]])))}`),
  'Key:Value array': (h, r) => json(r, `"iam_request_headers":${JSON.stringify(h.map(([k, v]) => `${k}:${v}`))}`),
  'raw JSON': (h, r) => json(r, `"iam_request_headers":${JSON.stringify(JSON.stringify(Object.fromEntries(h)))}`),
  'escaped keys': (h, r) => json(r, `${escapeAll('iam_request_headers')}:{${h.map(([k, v]) => `${escapeAll(k)}:${JSON.stringify(v)}`).join(',')}}`),
  'pretty JSON': (h, r) => JSON.stringify({ ...r, iam_request_headers: Object.fromEntries(h) }, null, 2),
  'form, base64': (h, r) => new URLSearchParams({ ...r, iam_request_headers: Buffer.from(JSON.stringify(Object.fromEntries(h))).toString('base64') }).toString(),
  'form, raw JSON': (h, r) => new URLSearchParams({ ...r, iam_request_headers: JSON.stringify(Object.fromEntries(h)) }).toString(),
}

describe('the redaction corpus: an iam login in every encoding of its signed headers', () => {
  it('keeps neither the session token nor the signature past its first 8 characters, whole or cut anywhere', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...Object.keys(HEADER_FORMS)),
        token,
        signature,
        spelling('X-Amz-Security-Token'),
        spelling('Authorization'),
        fc.nat(),
        fc.boolean(),
        (form, session, sig, tokenName, authName, cut, whole) => {
          const headers: [string, string][] = [
            ['Content-Type', 'application/x-www-form-urlencoded; charset=utf-8'],
            ['X-Amz-Date', '20260301T120000Z'],
            [tokenName, session],
            [authName, `AWS4-HMAC-SHA256 Credential=ASIAEXAMPLE/20260301/us-east-1/sts/aws4_request, SignedHeaders=content-type;host;x-amz-date;x-amz-security-token, Signature=${sig}`],
          ]
          const rest = { role: 'r', iam_http_request_method: 'POST', iam_request_url: Buffer.from('https://sts.amazonaws.com/').toString('base64') }
          const body = HEADER_FORMS[form]!(headers, rest)
          const text = whole ? body : body.slice(0, cut % (body.length + 1))
          const seen = readings(redactBodyText(text, '/v1/auth/cloud/login'))
          expect(leaks(seen, session), `session token in ${form}`).toBeUndefined()
          expect(leaks(seen, sig.slice(8)), `signature in ${form}`).toBeUndefined()
        },
      ),
      { numRuns: 600 },
    )
  })
})

/** A fixture's secret (a fake cloud key, a registry token) in each YAML and JSON form a fixture may take. */
const FIXTURE_FORMS: Record<string, (key: string, secret: string) => string> = {
  block: (k, s) => `cloud:\n  principals:\n    - type: user\n      ${k}: ${s}\n`,
  'list item': (k, s) => `registry:\n  tokens:\n    - ${k}: ${s}\n      organizations: [acme]\n`,
  flow: (k, s) => `cloud:\n  principals:\n    - { type: user, ${k}: ${s}, name: x }\n`,
  'flow, quoted key': (k, s) => `cloud:\n  principals:\n    - { "type": "user", "${k}": "${s}" }\n`,
  'single-quoted': (k, s) => `registry:\n  tokens:\n    - '${k}': '${s}'\n`,
  'escaped key': (k, s) => `registry:\n  tokens:\n    - "${k.replace(/_/g, '\\x5f').replace(/t/g, '\\u0074')}": ${s}\n`,
  'block scalar': (k, s) => `cloud:\n  principals:\n    - type: user\n      ${k}: |\n        ${s}\n      name: x\n`,
  'value on the next line': (k, s) => `cloud:\n  principals:\n    - type: user\n      ${k}:\n        ${s}\n`,
  'quoted over two lines': (k, s) => `cloud:\n  principals:\n    - type: user\n      ${k}: "${s.slice(0, 10)}\n        ${s.slice(10)}"\n`,
  'anchor and alias': (k, s) => `x-keys: &key ${s}\ncloud:\n  principals:\n    - type: user\n      ${k}: *key\n`,
  JSON: (k, s) => JSON.stringify({ version: 1, registry: { tokens: [{ [k]: s }] } }),
  'JSON, escaped key': (k, s) => `{"version":1,"registry":{"tokens":[{${escapeAll(k)}:${JSON.stringify(s)}}]}}`,
}

/** The whole fixture text: a JSON form is the document itself, a YAML form follows the version line. */
const fixtureText = (form: string, key: string, secret: string) => (form.startsWith('JSON') ? '' : 'version: 1\n') + FIXTURE_FORMS[form]!(key, secret)

describe('the redaction corpus: a fixture in every form its parser accepts', () => {
  it('keeps no secret of a secret field, whole or cut anywhere', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...Object.keys(FIXTURE_FORMS)),
        fc.constantFrom('secret_access_key', 'session_token', 'token', 'secret_key'),
        fc.stringMatching(/^[A-Za-z0-9]{24,60}$/),
        fc.nat(),
        fc.boolean(),
        (form, key, secret, cut, whole) => {
          const body = fixtureText(form, key, secret)
          const text = whole ? body : body.slice(0, cut % (body.length + 1))
          expect(leaks(readings(redactBodyText(text, '/_doppel/fixtures')), secret), `${form}: ${text}`).toBeUndefined()
        },
      ),
      { numRuns: 600 },
    )
  })

  it('each form parses as the fixture parser reads it (YAML, JSON being YAML), with the secret under its key', () => {
    const under = (value: unknown, key: string): unknown[] =>
      value === null || typeof value !== 'object' ? [] : Object.entries(value).flatMap(([k, v]) => (k === key ? [v] : under(v, key)))
    for (const form of Object.keys(FIXTURE_FORMS)) {
      const [value] = under(parseYaml(fixtureText(form, 'secret_key', 'S3CRETVALUE0123456789abcd')), 'secret_key')
      expect(String(value).replace(/\s/g, ''), form).toBe('S3CRETVALUE0123456789abcd')
    }
  })
})

describe('the redaction corpus: other forms', () => {
  const OTHER: Record<string, (secret: string) => string> = {
    'STS XML': (s) => `<AssumeRoleResult><Credentials><SessionToken>${s}</SessionToken><SecretAccessKey>${s}</SecretAccessKey></Credentials></AssumeRoleResult>`,
    'IMDS credentials JSON': (s) => JSON.stringify({ Code: 'Success', AccessKeyId: 'ASIA', SecretAccessKey: s, Token: s }),
    'canonical request': (s) => `POST\n/\n\ncontent-type:application/x-www-form-urlencoded\nhost:sts.amazonaws.com\nx-amz-date:20260301T120000Z\nx-amz-security-token:${s}\n\ncontent-type;host;x-amz-date;x-amz-security-token\nabc`,
    'presigned query in a form body': (s) => `Action=GetCallerIdentity&X-Amz-Security-Token=${encodeURIComponent(s)}&X-Amz-Signature=${s}`,
    'bearer header text': (s) => `Authorization: Bearer ${s}`,
    'metadata token header text': (s) => `X-aws-ec2-metadata-token: ${s}`,
    'issued token anywhere': (s) => `see hvs.${s} here`,
  }
  it('keeps no secret', () => {
    fc.assert(
      fc.property(fc.constantFrom(...Object.keys(OTHER)), fc.stringMatching(/^[A-Za-z0-9]{24,60}$/), (form, secret) => {
        expect(leaks(readings(redactBodyText(OTHER[form]!(secret), '/x')), secret), form).toBeUndefined()
      }),
      { numRuns: 300 },
    )
  })
})
