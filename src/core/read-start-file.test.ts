import fc from 'fast-check'
import { appendFileSync, mkdtempSync, promises as fsPromises, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { readStartFile, StartFileError } from './read-start-file.ts'

const dir = mkdtempSync(join(tmpdir(), 'doppel-read-start-file-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const reasonOf = (promise: Promise<unknown>) =>
  promise.then(
    () => 'read',
    (error: unknown) => (error instanceof StartFileError ? error.reason : `not a StartFileError: ${String(error)}`),
  )

describe('readStartFile', () => {
  it('reads a file whole up to its limit, and refuses it past the limit, whatever the sizes', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'binary', maxLength: 300 }), fc.integer({ min: 0, max: 600 }), async (text, limit) => {
        const file = join(dir, 'sized')
        writeFileSync(file, text)
        const size = Buffer.byteLength(text)
        if (size <= limit) expect(await readStartFile(file, { limit })).toBe(text)
        else expect(await reasonOf(readStartFile(file, { limit }))).toBe('EFBIG')
      }),
      { numRuns: 200 },
    )
  })

  it('sees a file that grows after it was measured: never more than the limit is read', async () => {
    const file = join(dir, 'growing')
    writeFileSync(file, 'a'.repeat(10))
    // The open answers; before the first read, the file grows past the limit.
    const open = async (path: string, flags: number) => {
      const handle = await fsPromises.open(path, flags)
      const stat = handle.stat.bind(handle)
      handle.stat = (async () => {
        const measured = await stat()
        appendFileSync(file, 'b'.repeat(100))
        return measured
      }) as typeof handle.stat
      return handle
    }
    expect(await reasonOf(readStartFile(file, { limit: 50, open }))).toBe('EFBIG')
  })

  it('refuses a folder, a device and, with noFollow, a link; passes on the OS error otherwise', async () => {
    expect(await reasonOf(readStartFile(dir, { limit: 10 }))).toBe('EFILETYPE')
    expect(await reasonOf(readStartFile('/dev/zero', { limit: 10 }))).toBe('EFILETYPE')
    const target = join(dir, 'target')
    writeFileSync(target, 'x')
    const link = join(dir, 'link')
    symlinkSync(target, link)
    expect(await readStartFile(link, { limit: 10 })).toBe('x')
    expect(await reasonOf(readStartFile(link, { limit: 10, noFollow: true }))).toBe('ELOOP')
    expect(await reasonOf(readStartFile(join(dir, 'missing'), { limit: 10 }))).toBe('ENOENT')
  })
})
