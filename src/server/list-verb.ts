import { Duplex } from 'node:stream'
import type { Socket } from 'node:net'

/**
 * Node's HTTP parser refuses the `LIST` verb that Vault clients send before any handler runs, so it is
 * renamed at the connection level to `LINK` (same length, a method the parser knows and that no client
 * of these services sends) and renamed back by the adapter.
 */
export const LIST_ALIAS = 'LINK'

const LIST = Buffer.from('LIST ')
const HEADER_END = Buffer.from('\r\n\r\n')

/** Rewrites `LIST ` at the start of a request line: at a chunk's start or after a bodiless request. */
export function rewriteListVerb(chunk: Buffer): Buffer {
  let copy: Buffer | undefined
  let at = 0
  for (;;) {
    if (chunk.length - at >= LIST.length && chunk.compare(LIST, 0, LIST.length, at, at + LIST.length) === 0) {
      copy ??= Buffer.from(chunk)
      copy.write('LINK', at, 'latin1')
    }
    const end = chunk.indexOf(HEADER_END, at)
    if (end === -1) break
    at = end + HEADER_END.length
    if (at >= chunk.length) break
  }
  return copy ?? chunk
}

/**
 * Wraps a socket in a Duplex that feeds the HTTP parser rewritten bytes. The parser would otherwise read
 * the socket's handle directly and never see a rewrite.
 */
export function listAwareSocket(socket: Socket): Duplex {
  const wrapper = new Duplex({
    read() {
      socket.resume()
    },
    write(chunk, encoding, callback) {
      socket.write(chunk, encoding, callback)
    },
    final(callback) {
      socket.end(callback)
    },
    destroy(error, callback) {
      socket.destroy(error ?? undefined)
      callback(error)
    },
  })
  socket.on('data', (chunk: Buffer) => {
    if (!wrapper.push(rewriteListVerb(chunk))) socket.pause()
  })
  socket.on('end', () => wrapper.push(null))
  socket.on('error', (error) => wrapper.destroy(error))
  socket.on('close', () => wrapper.destroy())
  const passthrough = wrapper as Duplex & Record<string, unknown>
  passthrough.remoteAddress = socket.remoteAddress
  passthrough.remotePort = socket.remotePort
  passthrough.localAddress = socket.localAddress
  passthrough.localPort = socket.localPort
  passthrough.setTimeout = (ms: number, cb?: () => void) => (socket.setTimeout(ms, cb), wrapper)
  passthrough.setNoDelay = (noDelay?: boolean) => (socket.setNoDelay(noDelay), wrapper)
  passthrough.setKeepAlive = (enable?: boolean, delay?: number) => (socket.setKeepAlive(enable, delay), wrapper)
  passthrough.ref = () => (socket.ref(), wrapper)
  passthrough.unref = () => (socket.unref(), wrapper)
  passthrough.address = () => socket.address()
  passthrough.underlyingSocket = socket
  return wrapper
}
