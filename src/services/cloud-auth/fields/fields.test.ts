import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  canonicalHeaderKey,
  FieldError,
  toBoolField,
  toCommaListField,
  toDurationField,
  toHeaderField,
  toIntField,
  toKvPairsField,
  toStringField,
  toStringListField,
} from './index.ts'

const message = (fn: () => unknown) => {
  try {
    fn()
  } catch (error) {
    expect(error).toBeInstanceOf(FieldError)
    return (error as Error).message
  }
  throw new Error('expected a FieldError')
}

describe('field converters (docs/reference/cloud-auth.md §1.7)', () => {
  it('TypeString converts scalars weakly and refuses lists and objects', () => {
    expect(toStringField('x', 'f')).toBe('x')
    expect(toStringField('1.50', 'f')).toBe('1.50')
    expect(toStringField(true, 'f')).toBe('1')
    expect(toStringField(false, 'f')).toBe('0')
    expect(toStringField(null, 'f')).toBe('')
    expect(message(() => toStringField(['a', 1], 'f'))).toBe(
      `error converting input for field "f": '' expected type 'string', got unconvertible type '[]interface {}', value: '[a 1]'`,
    )
  })

  it('TypeBool follows Go’s ParseBool, with "" as false', () => {
    for (const text of ['1', 't', 'T', 'TRUE', 'true', 'True']) expect(toBoolField(text, 'b')).toBe(true)
    for (const text of ['0', 'f', 'F', 'FALSE', 'false', 'False', '']) expect(toBoolField(text, 'b')).toBe(false)
    expect(message(() => toBoolField('maybe', 'nonce'))).toBe(
      `error converting input for field "nonce": cannot parse '' as bool: strconv.ParseBool: parsing "maybe": invalid syntax`,
    )
    expect(message(() => toBoolField('tRUE', 'b'))).toContain('parsing "tRUE": invalid syntax')
    expect(message(() => toBoolField({}, 'b'))).toBe(
      `error converting input for field "b": '' expected type 'bool', got unconvertible type 'map[string]interface {}', value: 'map[]'`,
    )
  })

  it('TypeInt takes Go integer literals', () => {
    expect(toIntField('42', 'i')).toBe(42)
    expect(toIntField('-0x10', 'i')).toBe(-16)
    expect(toIntField('010', 'i')).toBe(8)
    expect(toIntField('0b11', 'i')).toBe(3)
    expect(toIntField('1_000', 'i')).toBe(1000)
    expect(toIntField('', 'i')).toBe(0)
    expect(toIntField(true, 'i')).toBe(1)
    expect(message(() => toIntField('9223372036854775808', 'i'))).toBe(
      `error converting input for field "i": cannot parse '' as int: strconv.ParseInt: parsing "9223372036854775808": value out of range`,
    )
    expect(message(() => toIntField('1__0', 'i'))).toContain('invalid syntax')
  })

  it('TypeDurationSecond takes seconds, Go durations and days, truncating to seconds', () => {
    expect(toDurationField('60', 'd')).toBe(60)
    expect(toDurationField('72h', 'd')).toBe(259200)
    expect(toDurationField('1h30m', 'd')).toBe(5400)
    expect(toDurationField('1500ms', 'd')).toBe(1)
    expect(toDurationField('-500ms', 'd')).toBe(0)
    expect(toDurationField('2d', 'd')).toBe(172800)
    expect(toDurationField('.5h', 'd')).toBe(1800)
    expect(toDurationField('', 'd')).toBe(0)
    expect(message(() => toDurationField('-5', 'd'))).toBe(`error converting input for field "d": cannot provide negative value '-5'`)
    expect(message(() => toDurationField('1h.', 'd'))).toContain('time: invalid duration "1h."')
    expect(message(() => toDurationField('3x', 'd'))).toContain('time: unknown unit "x" in duration "3x"')
  })

  it('TypeCommaStringSlice splits, trims, keeps empties and order', () => {
    expect(toCommaListField('a, b,,a', 'l')).toEqual(['a', 'b', '', 'a'])
    expect(toCommaListField('', 'l')).toEqual([])
    expect(toCommaListField([' x ', 1, true, null], 'l')).toEqual(['x', '1', '1', ''])
    expect(toCommaListField('5', 'l')).toEqual(['5'])
    expect(toCommaListField({}, 'l')).toEqual([])
    expect(message(() => toCommaListField([[1], {}], 'l'))).toBe(
      `error converting input for field "l": 2 error(s) decoding:\n\n* '[0]' expected type 'string', got unconvertible type '[]interface {}', value: '[1]'\n* '[1]' expected type 'string', got unconvertible type 'map[string]interface {}', value: 'map[]'`,
    )
  })

  it('TypeHeader takes objects, base64 JSON, raw JSON and Key:Value lists, canonicalising keys', () => {
    const object = { 'x-amz-date': '20180910T203328Z', 'X-Vault-AWS-IAM-Server-ID': ['a', 'b'], 'content-length': '43' }
    const expected = { 'X-Amz-Date': ['20180910T203328Z'], 'X-Vault-Aws-Iam-Server-Id': ['a', 'b'], 'Content-Length': ['43'] }
    expect(toHeaderField(object, 'h')).toEqual(expected)
    expect(toHeaderField(Buffer.from(JSON.stringify(object)).toString('base64'), 'h')).toEqual(expected)
    expect(toHeaderField(JSON.stringify(object), 'h')).toEqual(expected)
    expect(toHeaderField(['x-amz-date:20180910T203328Z', 'a:b:c'], 'h')).toEqual({ 'X-Amz-Date': ['20180910T203328Z'], A: ['b:c'] })
    expect(message(() => toHeaderField({ a: ['x', true] }, 'h'))).toContain('received non-string value for header key:a, val:[x %!s(bool=true)]')
    // Inside a slice fmt writes a nil interface as <nil> whatever the verb (the SDK's own code answered so, test/real-server/field-conversion.test.ts).
    expect(message(() => toHeaderField({ a: ['x', null] }, 'h'))).toContain('val:[x <nil>]')
    // Go's %s of a bare bool or nil (sdk framework/field_data.go), as the real method answered
    expect(message(() => toHeaderField({ a: true }, 'h'))).toContain('unrecognized type for %!s(bool=true)')
    expect(message(() => toHeaderField({ a: null }, 'h'))).toContain('unrecognized type for %!s(<nil>)')
    expect(message(() => toHeaderField(['nocolon'], 'h'))).toContain('invalid key pair "nocolon"')
    // The SDK's order: a list of objects is one object; anything that is not a string is a list of itself,
    // whose items that are not strings are the empty pair; a pair needs a key.
    expect(toHeaderField([{ 'x-amz-date': 'd' }, null, { a: 'b' }], 'h')).toEqual({ 'X-Amz-Date': ['d'], A: ['b'] })
    for (const value of [true, [true], [['a:b']], ['a:b', {}]]) expect(message(() => toHeaderField(value, 'h'))).toContain('invalid key pair ""')
    expect(message(() => toHeaderField([':v'], 'h'))).toContain('invalid key pair ":v"')
    // A string is JSON read as Go's decoder reads it: nothing is "'data' being decoded is nil", white space EOF.
    expect(message(() => toHeaderField('', 'h'))).toContain("'data' being decoded is nil")
    expect(message(() => toHeaderField('  ', 'h'))).toContain('error converting input for field "h": EOF')
    expect(message(() => toHeaderField('{"a":', 'h'))).toContain('unexpected EOF')
  })

  it('canonicalises header keys as Go does', () => {
    expect(canonicalHeaderKey('x-amz-security-token')).toBe('X-Amz-Security-Token')
    expect(canonicalHeaderKey('X-AMZ-SIGNEDHEADERS')).toBe('X-Amz-Signedheaders')
    expect(canonicalHeaderKey('has space')).toBe('has space')
    expect(canonicalHeaderKey('X-Amz-Date')).toBe('X-Amz-Date')
    expect(canonicalHeaderKey('x_amz-1a--b.C')).toBe('X_amz-1a--B.c')
    expect(canonicalHeaderKey('-a')).toBe('-A')
    expect(canonicalHeaderKey('')).toBe('')
  })

  it('keeps a header named __proto__ as a header (a failing seed of the property below)', () => {
    expect(toHeaderField({ ['__proto__']: 'x' }, 'h')).toEqual(Object.assign(Object.create(null), { ['__proto__']: ['x'] }))
    expect(Object.keys(toHeaderField(JSON.stringify({ ['__proto__']: ['a', 'b'] }), 'h'))).toEqual(['__proto__'])
  })

  it('never throws anything but a FieldError, whatever the value', () => {
    const converters = [toStringField, toBoolField, toIntField, toDurationField, toCommaListField, toHeaderField]
    fc.assert(
      fc.property(fc.jsonValue(), fc.constantFrom(...converters), (value, convert) => {
        try {
          convert(value, 'field')
        } catch (error) {
          expect(error).toBeInstanceOf(FieldError)
          expect((error as Error).message.startsWith('error converting input ')).toBe(true)
        }
      }),
      // seed 330567443 found a `__proto__` header key: kept as a failing seed.
      { numRuns: 2000, examples: [[{ ['__proto__']: '' }, toHeaderField]] },
    )
  })

  it('reads any non-negative integer back from its decimal text and from Go duration text', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000_000 }), (seconds) => {
        expect(toDurationField(String(seconds), 'd')).toBe(seconds)
        expect(toDurationField(`${seconds}s`, 'd')).toBe(seconds)
        expect(toDurationField(`${Math.floor(seconds / 3600)}h${seconds % 3600}s`, 'd')).toBe(seconds)
        expect(toIntField(String(seconds), 'i')).toBe(seconds)
      }),
    )
  })
})

describe('TypeStringSlice and TypeKVPairs (auth/token/create, docs/reference/cloud-auth.md §7.2)', () => {
  it('TypeStringSlice keeps one string as one item and trims items; a map is refused', () => {
    expect(toStringListField('a,B , c', 'f')).toEqual(['a,B , c'])
    expect(toStringListField([' a ', 1, true, ''], 'f')).toEqual(['a', '1', '1', ''])
    expect(toStringListField(5, 'f')).toEqual(['5'])
    expect(toStringListField(null, 'f')).toEqual([])
    expect(toStringListField('', 'f')).toEqual([])
    expect(message(() => toStringListField({ a: 1 }, 'f'))).toMatch(/^error converting input for field "f": 1 error\(s\) decoding:\n\n\* '\[0\]' expected type 'string'/)
  })

  it('TypeKVPairs takes an object, or key=value items split at the first =', () => {
    expect(toKvPairsField({ a: 1, b: true, c: 'x' }, 'meta')).toEqual({ a: '1', b: '1', c: 'x' })
    expect(toKvPairsField(['k=v', 'x=y=z', ' s = t '], 'meta')).toEqual({ k: 'v', x: 'y=z', ' s ': ' t ' })
    expect(toKvPairsField('k=v', 'meta')).toEqual({ k: 'v' })
    expect(toKvPairsField([], 'meta')).toEqual({})
    expect(message(() => toKvPairsField(['nokv'], 'meta'))).toBe('error converting input for field "meta": invalid key pair "nokv"')
    expect(message(() => toKvPairsField(['=v'], 'meta'))).toBe('error converting input for field "meta": invalid key pair "=v"')
    expect(message(() => toKvPairsField({ a: { b: 1 } }, 'meta'))).toMatch(/1 error\(s\) decoding/)
  })

  it('any JSON value converts or is refused with a FieldError, never another error', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        for (const convert of [toStringListField, toKvPairsField]) {
          try {
            convert(value, 'f')
          } catch (error) {
            expect(error).toBeInstanceOf(FieldError)
          }
        }
      }),
    )
  })
})
