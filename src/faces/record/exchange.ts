/** One request and the upstream's answer, as the proxy saw them. */
export interface Exchange {
  method: string
  /** Path and query, as sent. */
  target: string
  requestHeaders: [string, string][]
  requestBody: Buffer
  status: number
  responseHeaders: [string, string][]
  responseBody: Buffer
  /** Why the proxy answered 502 instead of the upstream (too large, broken off, no answer); no response then. */
  refused?: string
}

export function header(headers: readonly [string, string][], name: string): string | undefined {
  const lower = name.toLowerCase()
  return headers.find(([n]) => n.toLowerCase() === lower)?.[1]
}

/** The body as JSON when it parses as JSON, else undefined. */
export function jsonBody(body: Buffer): unknown {
  if (body.length === 0) return undefined
  try {
    return JSON.parse(body.toString('utf8')) as unknown
  } catch {
    return undefined
  }
}

/** Whether the bytes are UTF-8 text (an upload tarball is not). */
export function isText(body: Buffer): boolean {
  return !body.includes(0) && Buffer.from(body.toString('utf8'), 'utf8').equals(body)
}
