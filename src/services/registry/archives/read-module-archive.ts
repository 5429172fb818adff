import { gunzipSync } from 'node:zlib'
import type { ModuleContents } from '../glossary.ts'
import { moduleContentsFromFiles } from './module-contents.ts'
import { readTar, TarError } from './tar-reader.ts'
import { errorKind } from '../../../core/doppel-error.ts'

/** An upload that is not a readable module tarball. */
export class ArchiveError extends errorKind('ArchiveError', 'DOPPEL_INVALID_ARCHIVE') {}

/** Unpacked size beyond which an upload is refused, so a small gzip bomb cannot fill memory. */
const MAX_UNPACKED_BYTES = 256 * 1024 * 1024
const README = /^(README(\.md)?|readme\.md|Readme\.md)$/

/**
 * What a module tarball holds (gzip-compressed tar, module files at the archive root).
 * Throws ArchiveError when the bytes are not such an archive.
 */
export function readModuleArchive(bytes: Uint8Array): ModuleContents {
  if (bytes.length < 2 || bytes[0] !== 0x1f || bytes[1] !== 0x8b) {
    throw new ArchiveError('Failed to read the module archive: it is not gzip-compressed')
  }
  let tar: Uint8Array
  try {
    tar = gunzipSync(bytes, { maxOutputLength: MAX_UNPACKED_BYTES })
  } catch (error) {
    throw new ArchiveError(`Failed to read the module archive: ${(error as Error).message}`)
  }
  let entries
  try {
    entries = readTar(tar)
  } catch (error) {
    if (error instanceof TarError) throw new ArchiveError(error.message)
    throw error
  }
  const decoder = new TextDecoder()
  const files = new Map<string, string>()
  for (const entry of entries) {
    if (entry.type !== 'file') continue
    const path = entry.path.replace(/^(\.\/)+/, '')
    if (path.startsWith('/') || path.split('/').includes('..')) continue
    const base = path.slice(path.lastIndexOf('/') + 1)
    if (base.endsWith('.tf') || README.test(base)) files.set(path, decoder.decode(entry.data))
  }
  return moduleContentsFromFiles(files)
}
