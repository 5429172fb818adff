/**
 * The one way doppel reads a file the user names at start (`--tls-cert`, `--tls-key`, `--fixtures`,
 * `--root-token-file`, the snapshots in `--data-dir`): only a regular file, and at most `limit` bytes of it.
 * The open does not block (`O_NONBLOCK`), so a FIFO is refused rather than waited on with the signals
 * unanswered, and a device (`/dev/zero`) is refused rather than read until memory runs out.
 */
import { constants, promises as fsPromises } from 'node:fs'
import { DoppelError } from './doppel-error.ts'

/** Why a start-up file was refused; `reason` is the OS error's code (`ENOENT`, `ELOOP`) or `EFILETYPE`/`EFBIG`. */
export class StartFileError extends DoppelError<'DOPPEL_START_FILE'> {
  override name = 'StartFileError'
  readonly reason: string
  constructor(message: string, reason: string) {
    super('DOPPEL_START_FILE', message)
    this.reason = reason
  }
}

export interface StartFileOptions {
  /** Bytes read at most; a larger file is refused whole. */
  limit: number
  /** Refuse a symbolic link at the path (`O_NOFOLLOW`): for files doppel wrote itself. */
  noFollow?: boolean
  /** The open to use (a test's failing disk); node:fs/promises' by default. */
  open?: (path: string, flags: number) => Promise<fsPromises.FileHandle>
}

/** The file's text (UTF-8), or a StartFileError saying why it cannot be one. */
export async function readStartFile(path: string, options: StartFileOptions): Promise<string> {
  const open = options.open ?? fsPromises.open
  let handle: fsPromises.FileHandle
  try {
    handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK | (options.noFollow ? constants.O_NOFOLLOW : 0))
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'EIO'
    throw new StartFileError(code === 'ELOOP' && options.noFollow ? 'it is a symbolic link' : (error as Error).message, code)
  }
  try {
    const stat = await handle.stat()
    if (!stat.isFile()) throw new StartFileError(`it is ${kindOf(stat)}, not a regular file`, 'EFILETYPE')
    if (stat.size > options.limit) throw tooLarge(options.limit)
    // The file may grow after the stat: the buffer grows with it, up to one byte past the limit.
    let buffer = Buffer.allocUnsafe(Math.min(stat.size, options.limit) + 1)
    let length = 0
    for (;;) {
      if (length === buffer.length) buffer = Buffer.concat([buffer, Buffer.allocUnsafe(Math.min(buffer.length, options.limit + 1 - buffer.length))])
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, null)
      if (bytesRead === 0) break
      length += bytesRead
      if (length > options.limit) throw tooLarge(options.limit)
    }
    return buffer.toString('utf8', 0, length)
  } finally {
    await handle.close()
  }
}

const tooLarge = (limit: number) => new StartFileError(`it is larger than ${limit} bytes`, 'EFBIG')

function kindOf(stat: { isDirectory(): boolean; isFIFO(): boolean; isCharacterDevice(): boolean; isBlockDevice(): boolean; isSocket(): boolean }): string {
  if (stat.isDirectory()) return 'a directory'
  if (stat.isFIFO()) return 'a FIFO'
  if (stat.isCharacterDevice() || stat.isBlockDevice()) return 'a device'
  if (stat.isSocket()) return 'a socket'
  return 'not a file'
}
