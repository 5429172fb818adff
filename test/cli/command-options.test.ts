// Every command's flags go through one parser: the same --help, the same one-line mistakes.
import { describe, expect, it } from 'vitest'
import { OPENAPI_USAGE, openApiCommand } from '../../src/cli/openapi-command.ts'
import { SERVE_USAGE, serve } from '../../src/cli/serve-command.ts'
import { UsageError } from '../../src/cli/usage-error.ts'
import { COMPARE_USAGE, proxyCommand, RECORD_USAGE } from '../../src/cli/record-command.ts'

function fakeIo() {
  const out = { stdout: '', stderr: '' }
  return { out, io: { stdout: (text: string) => void (out.stdout += text), stderr: (text: string) => void (out.stderr += text), cwd: process.cwd() } }
}

describe('command options', () => {
  it.each(['-h', '--help'])('%s prints the usage text, and only that', async (flag) => {
    const cases: [string, (io: ReturnType<typeof fakeIo>['io']) => Promise<unknown>, string, unknown][] = [
      ['serve', (io) => serve([flag], io), SERVE_USAGE, undefined],
      ['openapi', async (io) => openApiCommand([flag], io), OPENAPI_USAGE, 0],
      ['record', (io) => proxyCommand('record', [flag], io), RECORD_USAGE, 0],
      ['compare', (io) => proxyCommand('compare', [flag], io), COMPARE_USAGE, 0],
    ]
    for (const [name, command, usage, result] of cases) {
      const { out, io } = fakeIo()
      expect(await command(io), name).toBe(result)
      expect(out, name).toEqual({ stdout: `${usage}\n`, stderr: '' })
    }
  })

  it('describes a mistyped or incomplete flag in one line, with the flag meant', async () => {
    const openapi = fakeIo()
    expect(openApiCommand(['--profil', 'vault'], openapi.io)).toBe(1)
    expect(openapi.out).toEqual({ stdout: '', stderr: 'doppel openapi: unknown option --profil (did you mean --profile?)\n' })
    const record = fakeIo()
    expect(await proxyCommand('record', ['--upstrem', 'http://x'], record.io)).toBe(1)
    expect(record.out.stderr).toBe('doppel record: unknown option --upstrem (did you mean --upstream?)\n')
    const compare = fakeIo()
    expect(await proxyCommand('compare', ['extra'], compare.io)).toBe(1)
    expect(compare.out.stderr).toBe('doppel compare: unexpected argument "extra"\n')
    await expect(serve(['--prot', '1'], fakeIo().io)).rejects.toThrow(new UsageError('doppel serve: unknown option --prot (did you mean --port?)'))
    await expect(serve(['--port'], fakeIo().io)).rejects.toThrow(/^doppel serve: option --port <value> argument missing$/)
  })
})
