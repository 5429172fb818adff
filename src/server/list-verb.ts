import { STATUS_CODES, type IncomingMessage, type Server } from 'node:http'
import type { Socket } from 'node:net'
import { Duplex } from 'node:stream'

/** What Node's parser reports when it refuses a request line (`HPE_INVALID_METHOD` and friends). */
export interface ClientError extends Error {
  code?: string
  rawPacket?: Buffer
  bytesParsed?: number
}

const LIST = Buffer.from('LIST ')
/** Same length as `LIST `: Node's parser reads the request; the connection remembers it was a LIST. */
const STAND_IN = Buffer.from('POST ')
const S = 0x53

/**
 * A connection whose bytes come from a socket taken over after a `LIST` (see docs/decisions/list-verb.md).
 * Node's HTTP server serves it like any socket; its first request is the LIST under a stand-in method.
 */
class ListConnection extends Duplex {
  /** Whether the next request Node reads here is the LIST. */
  listPending = true
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

/** Moves a taken-over socket's bytes into its current ListConnection, rewriting each LIST's method. */
class Feeder {
  current: ListConnection | undefined
  /** Connections not yet retired: closing the socket closes them. */
  #live = new Set<ListConnection>()
  /** Bytes of a request that began with `LI…S` but that are too few yet to show `LIST `. */
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

  /** Starts a new connection at a LIST whose bytes are `first` (from its method's `LI`) and `rest`. */
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
    this.server.emit('connection', next)
    this.#start(first)
  }

  #start(bytes: Buffer): void {
    const head = this.#head ? Buffer.concat([this.#head, bytes]) : bytes
    if (head.length < LIST.length) {
      this.#head = head
      return
    }
    this.#head = undefined
    if (!head.subarray(0, LIST.length).equals(LIST)) {
      // Another method Node's parser does not know: answered as Node answers those.
      if (this.current) this.current.retired = true
      this.current?.destroy()
      this.root.end(plainAnswer(400), () => this.root.destroy())
      return
    }
    this.#deliver(Buffer.concat([STAND_IN, head.subarray(LIST.length)]))
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

/**
 * The `LIST` verb on a Node HTTP server. Node's parser refuses `LIST`; when it does, the socket is taken
 * from the parser and its bytes from the LIST on are fed to a new connection that Node parses again,
 * with `LIST` spelled `POST`; `markList` restores the method on that request. Only connections that send
 * `LIST` pay for the extra stream; keep-alive, pipelining and any TCP segmentation keep working.
 */
export function listVerb(server: Server) {
  const takenOver = new Set<Socket>()

  return {
    /** Takes a socket over at a refused `LIST`; false when the error is something else. */
    takeOver(error: ClientError, socket: Socket | Duplex): boolean {
      const packet = error.rawPacket
      const at = error.bytesParsed
      if (error.code !== 'HPE_INVALID_METHOD' || !packet || at === undefined || packet[at] !== S) return false
      // The parser stops at the `S` of `LIST`, having accepted `LI` (a prefix of LINK), maybe in an earlier segment.
      const first = Buffer.concat([LIST.subarray(0, 2), packet.subarray(at), ...drain(socket)])
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

    /** Restores the method of a LIST request read under its stand-in. */
    markList(req: IncomingMessage): void {
      const connection = req.socket
      if (connection instanceof ListConnection && connection.listPending) {
        connection.listPending = false
        req.method = 'LIST'
      }
    },

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
