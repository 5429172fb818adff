import { METHODS, STATUS_CODES, type IncomingMessage, type Server } from 'node:http'
import type { Socket } from 'node:net'
import { Duplex } from 'node:stream'
import { Server as TlsServer } from 'node:tls'

/** What Node's parser reports when it refuses a request line (`HPE_INVALID_METHOD` and friends). */
export interface ClientError extends Error {
  code?: string
  rawPacket?: Buffer
  bytesParsed?: number
}

/** Node's parser reads the request under this method; the connection remembers the real one. */
const STAND_IN = Buffer.from('POST')
const SPACE = 0x20
const LINE_FEED = 0x0a
/** Longer than any method a client sends: a request line without a space by then is malformed. */
const MAX_METHOD = 32
/** Every prefix of a method Node's parser knows: the bytes it accepted before refusing one. */
const KNOWN_PREFIXES = new Set(METHODS.flatMap((method) => Array.from({ length: method.length }, (_, i) => method.slice(0, i + 1))))

/**
 * A connection whose bytes come from a socket taken over at a method Node's parser refused (`LIST`; see
 * docs/decisions/list-verb.md). Node serves it like any socket; its first request arrives under a
 * stand-in method.
 */
class ListConnection extends Duplex {
  /** The real method of the first request Node reads here, until that request arrives. */
  pendingMethod: string | undefined
  /** Once retired, a connection no longer owns the socket: closing it leaves the socket open. */
  retired = false
  #open = false
  #queued: [Buffer, (error?: Error | null) => void][] = []

  readonly root: Socket
  readonly feeder: Feeder

  constructor(root: Socket, feeder: Feeder) {
    super()
    this.root = root
    this.feeder = feeder
  }

  get remoteAddress(): string | undefined {
    return this.root.remoteAddress
  }

  get remotePort(): number | undefined {
    return this.root.remotePort
  }

  setTimeout(ms: number, callback?: () => void): this {
    this.root.setTimeout(ms, callback)
    return this
  }

  setNoDelay(noDelay?: boolean): this {
    this.root.setNoDelay(noDelay)
    return this
  }

  setKeepAlive(enable?: boolean, delay?: number): this {
    this.root.setKeepAlive(enable, delay)
    return this
  }

  /** Lets writes through to the socket, once every answer of the connection before this one is out. */
  open(): void {
    this.#open = true
    for (const [chunk, done] of this.#queued) this.root.write(chunk, done)
    this.#queued = []
  }

  override _read(): void {
    this.feeder.resume()
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    if (this.#open) this.root.write(chunk, done)
    else this.#queued.push([chunk, done])
  }

  override _final(done: (error?: Error | null) => void): void {
    if (!this.retired) this.root.end()
    done()
  }

  override _destroy(error: Error | null, done: (error?: Error | null) => void): void {
    if (!this.retired) this.root.destroy()
    done(error)
  }
}

/** Moves a taken-over socket's bytes into its current ListConnection, renaming each refused method. */
class Feeder {
  current: ListConnection | undefined
  /** Connections not yet retired: closing the socket closes them. */
  #live = new Set<ListConnection>()
  /** The start of a refused request, until its method (up to the first space) is complete. */
  #head: Buffer | undefined

  readonly root: Socket
  readonly server: Server

  constructor(root: Socket, server: Server) {
    this.root = root
    this.server = server
    // Adding a 'data' listener makes Node's parser give the socket back (unconsume).
    root.on('data', (chunk: Buffer) => this.#push(chunk))
    root.on('end', () => this.current?.push(null))
    root.on('close', () => {
      for (const connection of this.#live) connection.destroy()
    })
  }

  resume(): void {
    if (this.root.isPaused()) this.root.resume()
  }

  /** Starts a new connection at a refused request whose bytes begin with `first`. */
  restart(previous: Socket | ListConnection, first: Buffer): void {
    const next = new ListConnection(this.root, this)
    this.current = next
    this.#live.add(next)
    this.#head = undefined
    whenQuiet(previous, () => {
      if (previous instanceof ListConnection) {
        this.#live.delete(previous)
        previous.retired = true
        previous.destroy()
      }
      next.open()
    })
    // An HTTPS server hands decrypted sockets to HTTP on 'secureConnection' ('connection' would start TLS again).
    this.server.emit(this.server instanceof TlsServer ? 'secureConnection' : 'connection', next)
    this.#start(first)
  }

  #start(bytes: Buffer): void {
    const head = this.#head ? Buffer.concat([this.#head, bytes]) : bytes
    const space = head.indexOf(SPACE)
    if (space === -1 && head.length < MAX_METHOD && !head.includes(LINE_FEED)) {
      this.#head = head
      return
    }
    this.#head = undefined
    const method = head.toString('latin1', 0, Math.max(space, 0))
    if (!isMethodName(method)) {
      // Not a method at all: answered as Node answers a malformed request line.
      if (this.current) this.current.retired = true
      this.current?.destroy()
      this.root.end(plainAnswer(400), () => this.root.destroy())
      return
    }
    if (this.current) this.current.pendingMethod = method
    this.#deliver(Buffer.concat([STAND_IN, head.subarray(space)]))
  }

  #push(chunk: Buffer): void {
    if (this.#head) this.#start(chunk)
    else this.#deliver(chunk)
  }

  #deliver(chunk: Buffer): void {
    if (this.current && !this.current.push(chunk)) this.root.pause()
  }
}

/** Calls `then` once a connection has no answer in progress or queued (Node assigns them in order). */
function whenQuiet(connection: Socket | ListConnection, then: () => void): void {
  const current = (connection as { _httpMessage?: NodeJS.EventEmitter | null })._httpMessage
  if (!current || connection.destroyed) return then()
  current.once('close', () => setImmediate(() => whenQuiet(connection, then)))
}

/** A bare HTTP answer for requests Node's parser refused, in the style of Go's net/http. */
export function plainAnswer(status: number): string {
  const body = `${status} ${STATUS_CODES[status] ?? ''}`
  return `HTTP/1.1 ${body}\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`
}

/** Upper-case letters, `-` and `_`: the methods a client may send (`LIST`, and `FROB` for a 405). */
function isMethodName(text: string): boolean {
  if (text.length === 0) return false
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (!((code >= 65 && code <= 90) || code === 45 || code === 95)) return false
  }
  return true
}

/**
 * The bytes of a refused request from its method on. The parser stopped at `at`, having accepted a prefix
 * of a method it knows: the longest such run before `at`. A `LIST` whose `L` or `LI` came in an earlier
 * segment (the parser stops at its `S`) gets them back.
 */
function refusedRequest(packet: Buffer, at: number): Buffer {
  const before = packet.toString('latin1', 0, at)
  if (packet[at] === 0x53 && (before === '' || before === 'I')) return Buffer.concat([Buffer.from('LI'.slice(0, 2 - at)), packet])
  let accepted = 0
  for (let n = Math.min(at, MAX_METHOD); n > 0; n--) {
    if (KNOWN_PREFIXES.has(packet.toString('latin1', at - n, at))) {
      accepted = n
      break
    }
  }
  return packet.subarray(at - accepted)
}

/**
 * Methods Node's parser refuses, `LIST` above all (Vault clients send it). When the parser refuses one,
 * the socket is taken from the parser and its bytes from that request on are fed to a new connection
 * that Node parses again, with the method spelled `POST`; `markMethod` restores it on that request. Only
 * connections that send such a method pay for the extra stream; keep-alive, pipelining and any TCP
 * segmentation keep working.
 */
export function listVerb(server: Server) {
  const takenOver = new Set<Socket>()

  return {
    /** Takes a socket over at a refused method; false when the error is something else. */
    takeOver(error: ClientError, socket: Socket | Duplex): boolean {
      const packet = error.rawPacket
      const at = error.bytesParsed
      if (error.code !== 'HPE_INVALID_METHOD' || !packet || at === undefined || at >= packet.length) return false
      const first = Buffer.concat([refusedRequest(packet, at), ...drain(socket)])
      let feeder: Feeder
      if (socket instanceof ListConnection) feeder = socket.feeder
      else {
        const root = socket as Socket
        root.removeAllListeners('data')
        root.removeAllListeners('end')
        feeder = new Feeder(root, server)
        takenOver.add(root)
        root.once('close', () => takenOver.delete(root))
      }
      feeder.restart(socket as Socket | ListConnection, first)
      return true
    },

    /** Whether Node's parser on this socket was set aside (its later errors are not the client's). */
    isTakenOver: (socket: Socket | Duplex) => takenOver.has(socket as Socket),

    /** Restores the method of a request read under the stand-in. */
    markMethod(req: IncomingMessage): void {
      const connection = req.socket
      if (connection instanceof ListConnection && connection.pendingMethod !== undefined) {
        req.method = connection.pendingMethod
        connection.pendingMethod = undefined
      }
    },

    /** The client's own connection a request came on, the same before and after a takeover. */
    connectionOf: (req: IncomingMessage): Socket => (req.socket instanceof ListConnection ? req.socket.root : req.socket),

    /** Destroys every taken-over socket (Node's `closeAllConnections` no longer sees them). */
    closeAll(): void {
      for (const socket of takenOver) socket.destroy()
      takenOver.clear()
    },
  }
}

/** Bytes a ListConnection holds but its (failed) parser has not read: they belong to the next one. */
function drain(socket: Socket | Duplex): Buffer[] {
  if (!(socket instanceof ListConnection)) return []
  socket.removeAllListeners('data')
  const rest: Buffer[] = []
  for (let chunk: Buffer | null; (chunk = socket.read() as Buffer | null) !== null; ) rest.push(chunk)
  return rest
}
