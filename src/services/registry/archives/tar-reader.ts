/** A small reader for ustar/pax/GNU tar archives: enough for module tarballs. */
import { errorKind } from '../../../core/doppel-error.ts'

export interface TarEntry {
  path: string
  type: 'file' | 'directory' | 'other'
  data: Uint8Array
}

/** A corrupt or truncated tar archive. */
export class TarError extends errorKind('TarError', 'DOPPEL_INVALID_TAR') {}

const BLOCK = 512
const decoder = new TextDecoder()

/** The entries of a tar archive, in archive order. Throws TarError on a corrupt or truncated archive. */
export function readTar(bytes: Uint8Array): TarEntry[] {
  const entries: TarEntry[] = []
  let offset = 0
  let longName: string | undefined
  while (offset < bytes.length) {
    // A partial header block is a cut-off archive (Go's archive/tar: unexpected EOF), not an empty one.
    if (offset + BLOCK > bytes.length) throw new TarError(`Failed to read the archive: the header at byte ${offset} is truncated`)
    const header = bytes.subarray(offset, offset + BLOCK)
    if (header.every((b) => b === 0)) break
    verifyChecksum(header, offset)
    const size = readSize(header.subarray(124, 136), offset)
    const dataStart = offset + BLOCK
    if (dataStart + size > bytes.length) throw new TarError(`Failed to read the archive: entry at byte ${offset} is truncated`)
    const data = bytes.subarray(dataStart, dataStart + size)
    offset = dataStart + Math.ceil(size / BLOCK) * BLOCK
    const flag = String.fromCharCode(header[156]!)
    if (flag === 'L') {
      longName = cString(data)
      continue
    }
    if (flag === 'x') {
      longName = paxPath(data) ?? longName
      continue
    }
    if (flag === 'g') continue
    const path = longName ?? headerPath(header)
    longName = undefined
    const type = flag === '0' || flag === '\0' || flag === '7' ? 'file' : flag === '5' ? 'directory' : 'other'
    entries.push({ path, type, data })
  }
  return entries
}

function cString(bytes: Uint8Array): string {
  const end = bytes.indexOf(0)
  return decoder.decode(end === -1 ? bytes : bytes.subarray(0, end))
}

function headerPath(header: Uint8Array): string {
  const name = cString(header.subarray(0, 100))
  const isUstar = cString(header.subarray(257, 262)) === 'ustar'
  const prefix = isUstar ? cString(header.subarray(345, 500)) : ''
  return prefix ? `${prefix}/${name}` : name
}

function readOctal(field: Uint8Array): number | undefined {
  const text = cString(field).trim()
  if (text === '') return 0
  if (!/^[0-7]+$/.test(text)) return undefined
  return parseInt(text, 8)
}

function readSize(field: Uint8Array, at: number): number {
  // @note GNU tar writes sizes over 8 GiB in base-256 with the high bit set.
  if ((field[0]! & 0x80) !== 0) {
    let size = field[0]! & 0x7f
    for (let i = 1; i < field.length; i++) size = size * 256 + field[i]!
    return size
  }
  const size = readOctal(field)
  if (size === undefined) throw new TarError(`Failed to read the archive: bad size field in the header at byte ${at}`)
  return size
}

function verifyChecksum(header: Uint8Array, at: number): void {
  const stored = readOctal(header.subarray(148, 156))
  let sum = 0
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 0x20 : header[i]!
  if (stored !== sum) throw new TarError(`Failed to read the archive: bad header checksum at byte ${at}`)
}

/** The `path` record of a pax extended header (`<len> path=<value>\n` records). */
function paxPath(data: Uint8Array): string | undefined {
  const text = decoder.decode(data)
  let path: string | undefined
  let i = 0
  while (i < text.length) {
    const space = text.indexOf(' ', i)
    if (space === -1) break
    const length = Number(text.slice(i, space))
    if (!Number.isInteger(length) || length <= 0) break
    const record = text.slice(space + 1, i + length)
    const eq = record.indexOf('=')
    if (eq !== -1 && record.slice(0, eq) === 'path') path = record.slice(eq + 1).replace(/\n$/, '')
    i += length
  }
  return path
}
