/** One HTTP/1.1 request read from raw bytes by `parseRawRequests`. */
export interface RawRequest {
  method: string
  target: string
  /** Name/value pairs as received, repeated headers kept. */
  headers: [string, string][]
  body: Buffer
}

export class RawRequestError extends Error {
  override name = 'RawRequestError'
}

const HEADER_END = Buffer.from('\r\n\r\n')

/**
 * Reads the complete requests at the front of `packet` (pipelined ones included). Supports bodies with
 * Content-Length; a chunked body or a truncated request is an error. Used only for methods Node's own
 * parser refuses (`LIST`).
 */
export function parseRawRequests(packet: Buffer): RawRequest[] {
  const requests: RawRequest[] = []
  let at = 0
  while (at < packet.length) {
    const end = packet.indexOf(HEADER_END, at)
    if (end === -1) throw new RawRequestError('incomplete request head')
    const lines = packet.subarray(at, end).toString('latin1').split('\r\n')
    const [method, target, version] = lines[0]!.split(' ')
    if (!method || !target || !/^HTTP\/1\.[01]$/.test(version ?? '')) throw new RawRequestError('malformed request line')
    const headers: [string, string][] = []
    for (const line of lines.slice(1)) {
      const colon = line.indexOf(':')
      if (colon <= 0) throw new RawRequestError('malformed header line')
      headers.push([line.slice(0, colon).trim(), line.slice(colon + 1).trim()])
    }
    const lookup = (name: string) => headers.find(([n]) => n.toLowerCase() === name)?.[1]
    if (lookup('transfer-encoding')) throw new RawRequestError('chunked bodies are not supported here')
    const length = Number(lookup('content-length') ?? 0)
    if (!Number.isInteger(length) || length < 0) throw new RawRequestError('bad content-length')
    const bodyStart = end + HEADER_END.length
    if (bodyStart + length > packet.length) throw new RawRequestError('incomplete request body')
    requests.push({ method, target, headers, body: packet.subarray(bodyStart, bodyStart + length) })
    at = bodyStart + length
  }
  return requests
}
