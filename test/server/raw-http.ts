import { connect } from 'node:net'

/** Statuses of the HTTP/1.1 answers in a raw byte stream, in order. */
export const statuses = (text: string) => [...text.matchAll(/HTTP\/1\.1 (\d{3})/g)].map((m) => Number(m[1]))

/**
 * Writes `segments` to a raw TCP connection to 127.0.0.1, `gapMs` apart, and reads until `answers` HTTP
 * answers with complete bodies have arrived (Content-Length framed), the socket closes, or `timeoutMs`.
 */
export function rawExchange(port: number, segments: (string | Buffer)[], answers: number, { gapMs = 0, timeoutMs = 5000 } = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1')
    socket.setNoDelay(true)
    let data = ''
    let settled = false
    const finish = () => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      socket.destroy()
      resolve(data)
    }
    const timer = setTimeout(() => {
      settled = true
      socket.destroy()
      reject(new Error(`timed out after ${timeoutMs} ms with: ${data.slice(0, 500)}`))
    }, timeoutMs)
    socket.on('data', (chunk) => {
      data += chunk.toString('latin1')
      if (complete(data) >= answers) finish()
    })
    socket.on('close', finish)
    socket.on('error', (error) => {
      if (!settled) reject(error)
    })
    socket.on('connect', async () => {
      for (const [i, segment] of segments.entries()) {
        if (i > 0 && gapMs > 0) await new Promise((r) => setTimeout(r, gapMs))
        if (!socket.destroyed) socket.write(segment)
      }
    })
  })
}

/** How many complete answers (head and Content-Length body) the text holds. */
function complete(text: string): number {
  let count = 0
  let at = 0
  for (;;) {
    const head = text.indexOf('\r\n\r\n', at)
    if (head === -1 || !text.startsWith('HTTP/1.1 ', at)) return count
    const length = /content-length: (\d+)/i.exec(text.slice(at, head))
    const end = head + 4 + (length ? Number(length[1]) : 0)
    if (text.length < end) return count
    count++
    at = end
  }
}
