import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { gunzipSync } from 'node:zlib'
import fc from 'fast-check'
import { afterAll, describe, expect, it } from 'vitest'
import { ArchiveError, readModuleArchive } from './read-module-archive.ts'
import { readTar, TarError } from './tar-reader.ts'
import { writeTar } from './tar-writer.ts'

const dirs: string[] = []
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })))

/** A tarball made by the system's GNU tar, the way a user would pack a module. */
function gnuTarball(files: Record<string, string>, format: string): Uint8Array {
  const dir = mkdtempSync(join(tmpdir(), 'doppel-tar-'))
  dirs.push(dir)
  const src = join(dir, 'src')
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(src, path, '..'), { recursive: true })
    writeFileSync(join(src, path), content)
  }
  const out = join(dir, 'module.tar.gz')
  execFileSync('tar', ['--format', format, '-czf', out, '-C', src, '.'])
  return new Uint8Array(readFileSync(out))
}

describe('readTar', () => {
  it('round-trips the writer', () => {
    const entries = readTar(writeTar([{ path: 'main.tf', content: 'x' }, { path: 'a/b.tf', content: 'y'.repeat(1000) }]))
    expect(entries.map((e) => [e.path, e.type, e.data.length])).toEqual([
      ['main.tf', 'file', 1],
      ['a/b.tf', 'file', 1000],
    ])
  })

  it.each(['gnu', 'pax', 'ustar'])('reads a module packed by GNU tar (%s format), long names included', (format) => {
    const long = `modules/${'n'.repeat(90)}/main.tf`
    const files = { 'main.tf': 'variable "a" {}\n', 'README.md': '# hi\n', [long]: 'output "o" { value = 1 }\n' }
    const bytes = gnuTarball(format === 'ustar' ? { 'main.tf': files['main.tf'], 'README.md': files['README.md'] } : files, format)
    const paths = readTar(gunzipSync(bytes))
      .filter((e) => e.type === 'file')
      .map((e) => e.path)
    expect(paths.sort()).toEqual((format === 'ustar' ? ['./README.md', './main.tf'] : ['./README.md', './main.tf', `./${long}`]).sort())
    const contents = readModuleArchive(bytes)
    expect(contents.root.inputs.map((i) => i.name)).toEqual(['a'])
    expect(contents.root.readme).toBe('# hi\n')
  })

  it('refuses a corrupt header checksum and a truncated entry', () => {
    const good = writeTar([{ path: 'main.tf', content: 'x'.repeat(600) }])
    const corrupt = good.slice()
    corrupt[0] = 'X'.charCodeAt(0)
    expect(() => readTar(corrupt)).toThrow(TarError)
    expect(() => readTar(good.slice(0, 700))).toThrow(/truncated/)
  })

  it('only ever throws ArchiveError on arbitrary bytes (fast-check)', () => {
    const tarLike = fc.uint8Array({ maxLength: 2048 }).map((noise) => {
      const base = writeTar([{ path: 'main.tf', content: 'variable "v" {}' }])
      base.set(noise.subarray(0, base.length))
      return base
    })
    fc.assert(
      fc.property(fc.oneof(fc.uint8Array({ maxLength: 2048 }), tarLike), (bytes) => {
        try {
          readTar(bytes)
        } catch (error) {
          expect(error).toBeInstanceOf(TarError)
        }
        try {
          readModuleArchive(bytes)
        } catch (error) {
          expect(error).toBeInstanceOf(ArchiveError)
        }
      }),
      { numRuns: 500 },
    )
  })
})
