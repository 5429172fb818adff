import type { Server } from 'node:http'
import type { Socket } from 'node:net'

/** Go's net/http answer (so Vault's) to plain HTTP on a TLS port, byte for byte. */
const PLAIN_HTTP_ANSWER = 'HTTP/1.0 400 Bad Request\r\n\r\nClient sent an HTTP request to an HTTPS server.\n'

/**
 * The TCP side of a TLS listener, which Node leaves to the caller:
 * - Node times a handshake from the client's first message on, so a connection that sends nothing would be
 *   held open for good, where plain HTTP closes it at the headers' time-out: each gets `handshakeMs`.
 * - Plain HTTP sent to the port is answered as Go's net/http answers it (a 400 naming the mistake), where
 *   Node would close the connection without a word.
 *
 * Node links a TLS socket to its TCP one by `_parent`, which is not public.
 */
export function guardTlsConnections(server: Server, handshakeMs: number): void {
  const pending = new WeakMap<Socket, NodeJS.Timeout>()
  server.on('connection', (socket: Socket) => {
    const timer = setTimeout(() => socket.destroy(), handshakeMs)
    pending.set(socket, timer)
    socket.once('close', () => clearTimeout(timer))
  })
  server.on('secureConnection', (socket: { _parent?: Socket }) => {
    if (socket._parent) clearTimeout(pending.get(socket._parent))
  })
  server.on('tlsClientError', (error: NodeJS.ErrnoException, socket: { _parent?: Socket }) => {
    const tcp = socket._parent
    if (error.code === 'ERR_SSL_HTTP_REQUEST' && tcp?.writable) tcp.end(PLAIN_HTTP_ANSWER)
  })
}
