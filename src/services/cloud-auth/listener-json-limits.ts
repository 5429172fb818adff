/**
 * Vault 1.21's listener check of every request body against its JSON limits, before any handler, token
 * check or route (`http/util.go` `wrapJSONLimitsHandler`, the SDK's `jsonutil.VerifyMaxDepthStreaming`;
 * docs/reference/cloud-auth.md §1.3). A body whose first byte is `{` or `[` is scanned to its end; what the
 * scan refuses is answered 500 with the scan's own words (413 past the body's size limit). The scan is not a
 * JSON parser: it checks limits and little syntax (no colons, literals read to the next delimiter), so
 * much that is not JSON passes it and is refused by the JSON decoder after, with a 400.
 */
import { SERVICE_ENTRY_LIMITS } from '../../core/bounded-parse.ts'
import { BODY_TOO_LARGE } from '../../core/go/go-json-read.ts'
import { goUtf8 } from '../../core/go/go-utf8.ts'

/** A listener's JSON limits, each as Vault's listener setting names it; 0 turns the depth, string and token limits off. */
export interface JsonLimits {
  /** `max_json_depth`: objects and arrays inside one another. */
  maxDepth: number
  /** `max_json_string_value_length`: a string's or a number's bytes as written (an escape counts its backslash). */
  maxStringValueLength: number
  /** `max_json_object_entry_count`: keys in one object. */
  maxObjectEntryCount: number
  /** `max_json_array_element_count`: elements in one array. */
  maxArrayElementCount: number
  /** `max_json_token`: braces, brackets, keys, values, commas and colons in the whole body. */
  maxTokens: number
  /**
   * doppel's own bound on a body's entries, all collections together (`SERVICE_ENTRY_LIMITS.total`: parsing
   * 500,000 tokens would hold every other request for half a second); past it a body is refused as past
   * the token count, the nearest of Vault's limits (docs/limits-and-differences.md).
   */
  maxTotalEntries?: number
}

/** The listener's defaults (`http/handler.go`: `CustomMaxJSONDepth` and the rest), which a dev server keeps. */
export const VAULT_LISTENER_JSON_LIMITS: JsonLimits = {
  maxDepth: 300,
  maxStringValueLength: 1024 * 1024,
  maxObjectEntryCount: 10_000,
  maxArrayElementCount: 10_000,
  maxTokens: 500_000,
  maxTotalEntries: SERVICE_ENTRY_LIMITS.total,
}

const TOKEN_COUNT = 'JSON payload exceeds allowed token count'

interface Container {
  object: boolean
  count: number
  /** The next string in an object is a key. */
  key: boolean
  /** An object's keys so far, as byte strings (one character a byte). */
  keys?: Set<string>
}

/** The scan's refusal: its message, and whether it is the size limit's (413) rather than the scan's own (500). */
export interface JsonLimitsRefusal {
  message: string
  tooLarge: boolean
}

/** The end of the bytes read: the end of the body, or (`over`) the size limit. */
const END = -1
const OVER = -2

/** The scan's white space: JSON's, and two bytes of its own (0x1F, 0x8B). */
const isScanSpace = (c: number) => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d || c === 0x1f || c === 0x8b
const isDelimiter = (c: number) => isScanSpace(c) || c === 0x2c || c === 0x7d || c === 0x5d
const isNumberByte = (c: number) => (c >= 0x30 && c <= 0x39) || c === 0x2e || c === 0x65 || c === 0x45 || c === 0x2b || c === 0x2d
/** Go's `strconv.ParseFloat` syntax for what the scan collects (digits, `.`, `e`, signs): `1.` and `.5` are numbers. */
const GO_FLOAT = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/

class Refused extends Error {}

/**
 * The listener's check of `bytes` (the body, or its first bytes up to the size limit when `over`), or
 * undefined when it passes. Mirrors the SDK's scan step by step, including where the size limit is met.
 */
export function checkJsonLimits(bytes: Uint8Array, limits: JsonLimits, over = false): JsonLimitsRefusal | undefined {
  try {
    scan(bytes, limits, over)
    return undefined
  } catch (error) {
    if (!(error instanceof Refused)) throw error
    return { message: error.message, tooLarge: error.message.includes(BODY_TOO_LARGE) }
  }
}

function scan(bytes: Uint8Array, limits: JsonLimits, over: boolean): void {
  let at = 0
  const peek = (): number => (at < bytes.length ? bytes[at]! : over ? OVER : END)
  const refuse = (message: string): never => {
    throw new Refused(message)
  }
  const skipSpace = (): number => {
    for (;;) {
      const c = peek()
      if (c === OVER) refuse(BODY_TOO_LARGE)
      if (c === END || !isScanSpace(c)) return c
      at++
    }
  }
  if (bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) at = 3
  const first = skipSpace()
  if (first !== 0x7b && first !== 0x5b) return

  const stack: Container[] = []
  let quoteAt = -1
  let slashAt = -1
  let maxDepth = 0
  let tokens = 0
  let afterComma = false
  let entries = 0
  const countEntry = () => {
    if (limits.maxTotalEntries !== undefined && ++entries > limits.maxTotalEntries) refuse(TOKEN_COUNT)
  }
  const countElement = (container: Container) => {
    if (++container.count > limits.maxArrayElementCount) refuse('JSON array exceeds allowed element count')
    countEntry()
  }
  // Each token starts at a byte the white space before it was skipped to (the scan's own `Peek` there never
  // meets the end, so its `error reading JSON token` does not happen).
  for (let c = first; c !== END; c = skipSpace()) {
    if (afterComma && (c === 0x7d || c === 0x5d)) refuse(c === 0x7d ? "invalid character '}' after object key-value pair" : "invalid character ']' after array element")
    if (stack.length === 0 && maxDepth > 0) refuse(`invalid character '${char(c)}' after top-level value`)
    if (limits.maxTokens > 0 && ++tokens > limits.maxTokens) refuse(TOKEN_COUNT)
    const container = stack.at(-1)
    afterComma = false
    switch (c) {
      case 0x7b:
      case 0x5b: {
        at++
        if (container?.object === false) countElement(container)
        else if (container) container.key = true
        maxDepth = Math.max(maxDepth, stack.length + 1)
        if (limits.maxDepth > 0 && stack.length + 1 > limits.maxDepth) refuse('JSON input exceeds allowed nesting depth')
        const object = c === 0x7b
        stack.push({ object, count: 0, key: object, keys: object ? new Set() : undefined })
        break
      }
      case 0x7d:
      case 0x5d: {
        if (container?.object && !container.key) refuse("invalid character '}' after object key")
        at++
        if (!container) refuse(`malformed JSON: unmatched closing delimiter '${char(c)}'`)
        if (container!.object !== (c === 0x7d)) refuse(`malformed JSON: mismatched closing delimiter '${char(c)}'`)
        stack.pop()
        const parent = stack.at(-1)
        if (parent?.object) parent.key = true
        break
      }
      case 0x22: {
        const value = scanString(container?.object === true && container.key)
        if (!container) break
        if (!container.object) countElement(container)
        else if (!container.key) container.key = true
        else {
          if (container.keys!.has(value)) refuse(`duplicate key '${goUtf8(Buffer.from(value, 'latin1'))}' in object`)
          container.keys!.add(value)
          if (++container.count > limits.maxObjectEntryCount) refuse('JSON object exceeds allowed entry count')
          countEntry()
          container.key = false
        }
        break
      }
      case 0x74:
      case 0x66:
      case 0x6e:
      case 0x2d:
      case 0x30:
      case 0x31:
      case 0x32:
      case 0x33:
      case 0x34:
      case 0x35:
      case 0x36:
      case 0x37:
      case 0x38:
      case 0x39:
        if (c === 0x74 || c === 0x66 || c === 0x6e) scanLiteral()
        else scanNumber()
        if (container?.object === false) countElement(container)
        else if (container) container.key = true
        break
      case 0x2c:
        at++
        afterComma = true
        if (container?.object) container.key = true
        break
      case 0x3a:
        at++
        break
      default:
        refuse(`invalid character '${char(c)}' looking for beginning of value`)
    }
  }
  if (stack.length > 0) refuse('malformed JSON, unclosed containers')

  /**
   * A string, its raw length (escapes counted as written) within the limit; its value as a byte string when
   * `keep` (a key, checked for duplicates: values are not kept, a login's documents run to kilobytes).
   */
  function scanString(keep: boolean): string {
    at++
    let value = ''
    let length = 0
    let lastRune = -1
    for (;;) {
      // A run of plain bytes at once (a login's documents are kilobytes of them): the scan counts each and
      // refuses the first past the limit, whatever follows the run.
      const stop = nextSpecial()
      if (stop > at) {
        if (limits.maxStringValueLength > 0 && length + (stop - at) > limits.maxStringValueLength) refuse('JSON string value exceeds allowed length')
        if (keep) value += Buffer.from(bytes.buffer, bytes.byteOffset + at, stop - at).toString('latin1')
        length += stop - at
        at = stop
        lastRune = -1
      }
      const c = peek()
      if (c === END) refuse('malformed JSON, unclosed string')
      if (c === OVER) refuse(BODY_TOO_LARGE)
      at++
      if (c === 0x22) {
        if (lastRune >= 0xd800 && lastRune <= 0xdbff) refuse('malformed JSON, unterminated surrogate pair in string')
        return value
      }
      length++
      lastRune = -1
      if (c !== 0x5c) {
        if (keep) value += String.fromCharCode(c)
      } else {
        const escaped = peek()
        if (escaped < 0) refuse('malformed JSON, unterminated escape sequence in string')
        at++
        length++
        const simple = SIMPLE_ESCAPES.get(escaped)
        if (simple !== undefined) {
          if (keep) value += simple
        } else if (escaped !== 0x75) refuse(`invalid character '${char(escaped)}' in string escape code`)
        else {
          if (at + 4 > bytes.length) refuse('malformed JSON, unterminated unicode escape in string')
          const hex = bytes.subarray(at, at + 4)
          at += 4
          length += 4
          // Go ranges over the four bytes as a string: a byte that starts no UTF-8 is U+FFFD.
          for (const digit of goUtf8(hex)) if (!/[0-9a-fA-F]/.test(digit)) refuse(`invalid character '${digit}' in string escape code`)
          const rune = parseInt(Buffer.from(hex).toString('latin1'), 16)
          // Written as UTF-8; a surrogate half is no rune, and Go writes U+FFFD for it.
          if (keep) value += Buffer.from(rune >= 0xd800 && rune <= 0xdfff ? '\ufffd' : String.fromCharCode(rune), 'utf8').toString('latin1')
          lastRune = rune
        }
      }
      if (limits.maxStringValueLength > 0 && length > limits.maxStringValueLength) refuse('JSON string value exceeds allowed length')
    }
  }

  /** Where the next quote or backslash is (the end of the bytes when none), each found once per run of the body. */
  function nextSpecial(): number {
    if (quoteAt < at) quoteAt = indexOrEnd(0x22)
    if (slashAt < at) slashAt = indexOrEnd(0x5c)
    return Math.min(quoteAt, slashAt)
  }
  function indexOrEnd(byte: number): number {
    const found = bytes.indexOf(byte, at)
    return found === -1 ? bytes.length : found
  }

  /** `true`, `false`, `null`, or anything else up to the next delimiter: not checked here. */
  function scanLiteral(): void {
    for (;;) {
      const c = peek()
      if (c === OVER) refuse(BODY_TOO_LARGE)
      if (c === END || isDelimiter(c)) return
      at++
    }
  }

  function scanNumber(): void {
    if (at + 1 < bytes.length && bytes[at] === 0x30 && bytes[at + 1]! >= 0x30 && bytes[at + 1]! <= 0x39) {
      refuse(`invalid character '${char(bytes[at + 1]!)}' after top-level value`)
    }
    const begin = at
    for (;;) {
      const c = peek()
      if (c === OVER) refuse(BODY_TOO_LARGE)
      if (c === END || isDelimiter(c) || !isNumberByte(c)) break
      at++
      if (limits.maxStringValueLength > 0 && at - begin > limits.maxStringValueLength) refuse('JSON number value exceeds allowed length')
    }
    const text = Buffer.from(bytes.subarray(begin, at)).toString('latin1')
    // ParseFloat also refuses a number past float64's range.
    if (!GO_FLOAT.test(text) || !Number.isFinite(Number(text))) refuse(`malformed JSON, invalid number syntax for '${text}'`)
  }
}

/** What each short escape writes, by the byte after the backslash. */
const SIMPLE_ESCAPES = new Map([...'"\\/bfnrt'].map((char, i) => [char.charCodeAt(0), '"\\/\b\f\n\r\t'[i]!]))

/** Go's `%c` of a byte: the rune of that number. */
const char = (byte: number) => String.fromCharCode(byte)
