import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createDoppel } from '../../src/features/doppel/doppel.ts'
import { redactBodyText, redactHeaderValue } from '../../src/services/control/redact.ts'

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
          expect(Buffer.byteLength(entry.request.body)).toBeLessThanOrEqual(64)
          expect(entry.request.truncated).toBe(bytes.length > 64)
        }
      }),
      { numRuns: 100 },
    )
    await doppel.fetch('http://doppel.test/_doppel/clock', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: new Uint8Array(100).fill(0xff) })
    expect(doppel.journal.entries().at(-1)!.request.body).toBe('<100 bytes of application/json>')
  })
})
