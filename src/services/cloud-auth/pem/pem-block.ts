/**
 * Go's `pem.Decode`, ported step by step: it skips text before a block, skips blocks that do not decode,
 * and returns what follows the first good block's END line. The certificate endpoint's "one PEM block
 * only" rule is stated in terms of that rest.
 */
import { decodeStdBase64 } from '../../../core/go/go-base64.ts'

export interface PemBlock {
  type: string
  headers: Record<string, string>
  bytes: Buffer
}

const START = '\n-----BEGIN '
const END = '\n-----END '
const DASHES = '-----'

function getLine(data: string): [line: string, rest: string] {
  let i = data.indexOf('\n')
  let j: number
  if (i < 0) {
    i = data.length
    j = i
  } else {
    j = i + 1
    if (i > 0 && data[i - 1] === '\r') i--
  }
  return [data.slice(0, i).replace(/[ \t]+$/, ''), data.slice(j)]
}

/** The first PEM block of `data` and the text after it; `[undefined, data]` when there is none. */
export function decodePem(data: string): [block: PemBlock | undefined, rest: string] {
  let rest = data
  for (;;) {
    if (rest.startsWith(START.slice(1))) rest = rest.slice(START.length - 1)
    else {
      const at = rest.indexOf(START)
      if (at < 0) return [undefined, data]
      rest = rest.slice(at + START.length)
    }
    let typeLine: string
    ;[typeLine, rest] = getLine(rest)
    if (!typeLine.endsWith(DASHES)) continue
    typeLine = typeLine.slice(0, -DASHES.length)
    const headers: Record<string, string> = {}
    let truncated = false
    for (;;) {
      if (rest.length === 0) {
        truncated = true
        break
      }
      const [line, next] = getLine(rest)
      const colon = line.indexOf(':')
      if (colon < 0) break
      headers[line.slice(0, colon).trim()] = line.slice(colon + 1).trim()
      rest = next
    }
    if (truncated) return [undefined, data]
    let endIndex: number
    let endTrailerIndex: number
    if (Object.keys(headers).length === 0 && rest.startsWith(END.slice(1))) {
      endIndex = 0
      endTrailerIndex = END.length - 1
    } else {
      endIndex = rest.indexOf(END)
      endTrailerIndex = endIndex + END.length
    }
    if (endIndex < 0) continue
    const trailerLength = typeLine.length + DASHES.length
    const trailer = rest.slice(endTrailerIndex, endTrailerIndex + trailerLength)
    if (trailer.length < trailerLength || !trailer.startsWith(typeLine) || !trailer.endsWith(DASHES)) continue
    if (getLine(rest.slice(endTrailerIndex + trailerLength))[0].length !== 0) continue
    const bytes = decodeStdBase64(rest.slice(0, endIndex).replace(/[ \t]/g, ''))
    if (bytes === undefined) continue
    const [, after] = getLine(rest.slice(endIndex + END.length - 1))
    return [{ type: typeLine, headers, bytes }, after]
  }
}
