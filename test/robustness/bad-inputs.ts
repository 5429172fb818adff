import { gzipSync } from 'node:zlib'
import { writeTar } from '../../src/services/registry/index.ts'
import type { Endpoint, Probe, ValueKind } from './endpoints.ts'
import type { RobustWorld } from './robust-world.ts'

/** The bad inputs of the corpus: each turns an endpoint into requests, or does not apply to it. */
export interface BadInput {
  label: string
  probe(endpoint: Endpoint): Probe | undefined
}

/** A body that streams `bytes` bytes without holding them: the reader must stop at its limit. */
function oversizedBody(bytes: number): ReadableStream<Uint8Array> {
  const chunk = new Uint8Array(1024 * 1024).fill(0x61)
  let sent = 0
  return new ReadableStream({
    pull(controller) {
      if (sent >= bytes) return controller.close()
      const size = Math.min(chunk.length, bytes - sent)
      controller.enqueue(chunk.subarray(0, size))
      sent += size
    },
  })
}

const MALFORMED_JSON = ['{', '{"role":', '{"a":1,}', "{'a':1}", '{"a":NaN}', '[1,2]', '"text"', '42', 'nul', '\u0000{}', '{"a":"\\x"}']

const WRONG_TYPES = ['{"deep":{"x":[1]}}', '[{"a":1}]', '[[["nested"]]]']

const BAD_BASE64 = ['!!!not-base64!!!', 'QUJD=QUJD', '====', 'A', 'Zm9v\u0000YmFy', '%%%%', 'ë€ö']

const BROKEN_SIGV4 = [
  'AWS4-HMAC-SHA256',
  'AWS4-HMAC-SHA256 Credential=',
  'AWS4-HMAC-SHA256 Credential=AKIAEXAMPLE/20260301/us-east-1/sts/aws4_request, SignedHeaders=host, Signature=zz',
  'AWS4-HMAC-SHA256 Credential=AKIAEXAMPLE, SignedHeaders=, Signature=',
  'AWS4-HMAC-SHA256 Credential=a/b/c/d/e/f/g, SignedHeaders=host;;x-amz-date, Signature=00',
  'AWS4-HMAC-SHA512 Credential=AKIAEXAMPLE/20260301/us-east-1/sts/aws4_request, SignedHeaders=host, Signature=00',
  'Bearer abc',
  'AWS4-HMAC-SHA256 Credential=AKIA\u00e9/20260301/us-east-1/sts/aws4_request,,,, Signature==',
]

/** Path segments: traversal (plain, dot-encoded, slash-encoded, double-encoded), unicode, control characters. */
const NAMES = [
  '../x',
  '..%2Fx',
  '%2e%2e%2Fx',
  '%2e%2e/x',
  '..%5C..%5Cwindows',
  '%252e%252e%252f',
  'a%2Fb',
  '%00',
  'x%0D%0AX-Injected:%201',
  'caf%C3%A9',
  '%F0%9F%92%A5',
  '%FF%FE',
  '%E2%80%AE',
  '%',
]

/** Unicode and control characters inside string fields. */
const TEXTS = ['\u0000', 'a\r\nb', '\u202eevil', '\ud800', '💥', 'ä'.repeat(300), '\u0007\u001b[31m', '   ']

function archives(): string[] {
  const good = gzipSync(writeTar([{ path: 'main.tf', content: 'variable "x" {}\n' }]))
  return [
    good.subarray(0, good.length >> 1),
    gzipSync(Buffer.from('not a tarball at all')),
    writeTar([{ path: 'main.tf', content: '' }]),
    Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0xff, 0xff, 0xff]),
  ].map((bytes) => Buffer.from(bytes).toString('base64'))
}

/** pkcs7 documents, made from the world's valid one: truncated, with a flipped byte, garbage DER, not DER at all. */
const PKCS7_DOCUMENTS: [string, (der: Buffer) => Buffer][] = [
  ['truncated to half', (der) => der.subarray(0, der.length >> 1)],
  ['truncated to 2 bytes', (der) => der.subarray(0, 2)],
  ['with a flipped byte', (der) => {
    const flipped = Buffer.from(der)
    flipped[flipped.length >> 1]! ^= 0xff
    return flipped
  }],
  ['of garbage bytes', () => Buffer.from(Array.from({ length: 64 }, (_, i) => (i * 37 + 11) & 0xff))],
  ['claiming a 2 GiB length', () => Buffer.from([0x30, 0x84, 0x7f, 0xff, 0xff, 0xff, 0x02, 0x01])],
  ['of nested indefinite lengths', () => Buffer.from([0x30, 0x80, 0x30, 0x80, 0x30, 0x80, 0x30, 0x80])],
  ['in PEM armour', () => Buffer.from('-----BEGIN PKCS7-----\nAAAA\n-----END PKCS7-----\n')],
]

const byKind = (kind: ValueKind, values: string[], label: (value: string) => string): BadInput[] =>
  values.map((value) => ({ label: `${kind} ${label(value)}`, probe: (endpoint) => endpoint.takes[kind]?.(value) }))

const shown = (value: string) => JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)

/** Every bad input, one list for every endpoint. */
export function badInputs(world: () => RobustWorld): BadInput[] {
  const der = () => Buffer.from(world().pkcs7.replace(/\s/g, ''), 'base64')
  return [
    ...MALFORMED_JSON.map(
      (text): BadInput => ({ label: `malformed JSON ${shown(text)}`, probe: (endpoint) => (endpoint.json ? endpoint.send?.(text) : undefined) }),
    ),
    { label: 'empty body', probe: (endpoint) => (endpoint.emptyIsBad ? endpoint.send?.('') : undefined) },
    {
      label: 'oversized body',
      probe: (endpoint) => (endpoint.limit === undefined ? undefined : endpoint.send?.(oversizedBody(endpoint.limit + 1))),
    },
    {
      label: 'oversized body, declared by Content-Length',
      probe: (endpoint) => {
        if (endpoint.limit === undefined) return undefined
        const request = endpoint.send?.(oversizedBody(endpoint.limit + 1))
        return request && { ...request, headers: { ...request.headers, 'Content-Length': String(endpoint.limit + 1) } }
      },
    },
    ...byKind('types', WRONG_TYPES, shown),
    ...byKind('base64', BAD_BASE64, shown),
    ...PKCS7_DOCUMENTS.map(
      ([label, make]): BadInput => ({ label: `pkcs7 document ${label}`, probe: (endpoint) => endpoint.takes.pkcs7?.(make(der()).toString('base64')) }),
    ),
    ...byKind('archive', archives(), (value) => `of ${Buffer.from(value, 'base64').length} bytes`),
    ...byKind('sigv4', BROKEN_SIGV4, shown),
    ...byKind('name', NAMES, shown),
    ...byKind('text', TEXTS, shown),
  ]
}
