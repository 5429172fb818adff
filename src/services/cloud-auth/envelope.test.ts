import fc from 'fast-check'
import { expect, it } from 'vitest'
import { Emulator } from '../../core/emulator.ts'
import type { RequestContext } from '../../core/glossary.ts'
import { goJsonText, WrittenJson } from '../../core/go/go-json-text.ts'
import { authResponse, sortedKeys, type AuthEnvelopeInput } from './envelope.ts'

// The envelope's text, put together field by field, is the text of the envelope written as one object
// (the real service's struct, then Go's JSON): with data as a record or already written, any warnings, auth,
// top-level keys and mount type.
const text = fc.string({ unit: fc.constantFrom('a', 'Z', '<', '>', '&', '\u2028', '\u2029', 'é', '"', '\\', '\n', '1'), maxLength: 5 })
const json = fc.jsonValue({ maxDepth: 2 }).map((value) => JSON.parse(JSON.stringify(value)) as unknown)
const ENVELOPE_FIELDS = ['request_id', 'lease_id', 'renewable', 'lease_duration', 'data', 'wrap_info', 'warnings', 'auth', 'mount_type']
const record = fc.dictionary(fc.oneof(text, fc.constantFrom(...ENVELOPE_FIELDS, '__proto__', 'constructor')), json, { maxKeys: 4 })

function contextOf(seed: number): RequestContext {
  const emulator = new Emulator({ seed })
  return { emulator, profile: emulator.profile, remoteAddress: '127.0.0.1', url: new URL('http://127.0.0.1/') } as RequestContext
}

it('writes the envelope as Go writes it as one object', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.record(
        {
          data: fc.option(record, { nil: undefined }),
          written: fc.boolean(),
          warnings: fc.option(fc.array(text, { maxLength: 2 }), { nil: undefined }),
          auth: fc.option(record, { nil: undefined }),
          topLevel: fc.option(record, { nil: undefined }),
          status: fc.constantFrom(200, 202),
          mountType: fc.option(text, { nil: undefined }),
          rendered: fc.boolean(),
        },
        { requiredKeys: ['written', 'status', 'rendered'] },
      ),
      async ({ written, ...input }) => {
        const given: AuthEnvelopeInput = { ...input, ...(written && input.data && { data: new WrittenJson(sortedKeys(input.data)) }) }
        const answer = await authResponse(contextOf(1), given).text()
        const expected = {
          ...(input.topLevel && sortedKeys(input.topLevel)),
          request_id: contextOf(1).emulator.random.uuid(),
          lease_id: '',
          renewable: false,
          lease_duration: 0,
          data: input.data ? sortedKeys(input.data) : null,
          wrap_info: null,
          warnings: input.warnings && input.warnings.length > 0 ? input.warnings : null,
          auth: input.auth ?? null,
          mount_type: input.rendered ? '' : (input.mountType ?? 'aws'),
        }
        expect(JSON.parse(answer)).toEqual(JSON.parse(goJsonText(expected)))
        // The very text, unless a top-level key names an envelope field: the envelope's value is then at its place.
        const named = Object.keys(input.topLevel ?? {}).some((key) => ENVELOPE_FIELDS.includes(key))
        if (!named) expect(answer).toBe(goJsonText(expected) + (input.rendered ? '' : '\n'))
      },
    ),
    { numRuns: 300 },
  )
})
