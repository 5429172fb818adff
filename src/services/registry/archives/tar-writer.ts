/** A small ustar writer: seeded versions get a real, downloadable tarball built from their metadata. */

const BLOCK = 512
const encoder = new TextEncoder()

export interface TarFile {
  path: string
  content: string | Uint8Array
}

/** A ustar archive of regular files (mode 0644, mtime 0 so equal input gives equal bytes). */
export function writeTar(files: readonly TarFile[]): Uint8Array {
  const parts: Uint8Array[] = []
  for (const file of files) {
    const data = typeof file.content === 'string' ? encoder.encode(file.content) : file.content
    parts.push(header(file.path, data.length), data, new Uint8Array((BLOCK - (data.length % BLOCK)) % BLOCK))
  }
  parts.push(new Uint8Array(BLOCK * 2))
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0))
  let offset = 0
  for (const part of parts) {
    out.set(part, offset)
    offset += part.length
  }
  return out
}

function header(path: string, size: number): Uint8Array {
  const block = new Uint8Array(BLOCK)
  const name = encoder.encode(path)
  if (name.length > 100) throw new RangeError(`Failed to write a tar entry: path "${path}" is longer than 100 bytes`)
  block.set(name, 0)
  writeOctal(block, 100, 8, 0o644)
  writeOctal(block, 108, 8, 0)
  writeOctal(block, 116, 8, 0)
  writeOctal(block, 124, 12, size)
  writeOctal(block, 136, 12, 0)
  block.fill(0x20, 148, 156)
  block[156] = '0'.charCodeAt(0)
  block.set(encoder.encode('ustar\u000000'), 257)
  let sum = 0
  for (const b of block) sum += b
  writeOctal(block, 148, 8, sum)
  return block
}

function writeOctal(block: Uint8Array, offset: number, length: number, value: number): void {
  block.set(encoder.encode(value.toString(8).padStart(length - 1, '0')), offset)
  block[offset + length - 1] = 0
}
