// Every command's flags go through one parser: the same --help, the same one-line mistakes.
import { describe, expect, it } from 'vitest'
import { COMPARE_USAGE } from '../../src/cli/compare-command.ts'
import { CONFORMANCE_USAGE } from '../../src/cli/conformance-command.ts'
import { VAULT_CONTAINER_USAGE } from '../../src/cli/conformance-vault-command.ts'
import { OPENAPI_USAGE } from '../../src/cli/openapi-command.ts'
import { RECORD_USAGE } from '../../src/cli/record-command.ts'
import { RUN_USAGE } from '../../src/cli/run-command.ts'
import { SERVE_USAGE } from '../../src/cli/serve-command.ts'
import { doppel } from './helpers.ts'

const USAGES = {
  serve: SERVE_USAGE,
  run: RUN_USAGE,
  conformance: CONFORMANCE_USAGE,
  'conformance-vault': VAULT_CONTAINER_USAGE,
  record: RECORD_USAGE,
  compare: COMPARE_USAGE,
  openapi: OPENAPI_USAGE,
}

describe('command options', () => {
  it.each(['-h', '--help'])('%s prints the usage text, and only that', async (flag) => {
    for (const [command, usage] of Object.entries(USAGES)) {
      expect(await doppel(command, flag), command).toEqual({ code: 0, stdout: `${usage}\n`, stderr: '' })
    }
  })

  it('describes a mistyped or incomplete flag in one line, with the flag meant and the pointer to --help', async () => {
    const cases: [string[], string][] = [
      [['openapi', '--profil', 'vault'], 'doppel openapi: unknown option --profil (did you mean --profile?)'],
      [['record', '--upstrem', 'http://x'], 'doppel record: unknown option --upstrem (did you mean --upstream?)'],
      [['compare', 'extra'], 'doppel compare: unexpected argument "extra"'],
      [['conformance', 'some.yaml'], 'doppel conformance: unexpected argument "some.yaml"'],
      [['conformance-vault', '--imag', 'x'], 'doppel conformance-vault: unknown option --imag (did you mean --image?)'],
      [['serve', '--prot', '1'], 'doppel serve: unknown option --prot (did you mean --port?)'],
      [['serve', '--port'], 'doppel serve: option --port <value> argument missing'],
    ]
    for (const [argv, line] of cases) {
      expect(await doppel(...argv), argv.join(' ')).toEqual({ code: 1, stdout: '', stderr: `${line}\nRun "doppel ${argv[0]} --help" for usage.\n` })
    }
  })

  it('--profile is one option: the same values and the same message on every command that has it', async () => {
    for (const argv of [['serve'], ['run', 'scenarios'], ['conformance'], ['compare', '--upstream', 'http://127.0.0.1:8200'], ['openapi']]) {
      const { code, stderr } = await doppel(...argv, '--profile', 'consul')
      expect(code, argv[0]).toBe(1)
      expect(stderr.split('\n')[0], argv[0]).toBe(`doppel ${argv[0]}: --profile must be service or vault, not "consul"`)
    }
    expect((await doppel('record', '--upstream', 'http://127.0.0.1:8200', '--out', 'x', '--profile', 'vault')).stderr).toMatch(/^doppel record: unknown option --profile \(did you mean --pid-file\?\)\n/)
  })

  it('--seed <n> is the random seed on every command that has it, and an integer', async () => {
    for (const argv of [['run', 'scenarios'], ['conformance'], ['compare', '--upstream', 'http://127.0.0.1:8200']]) {
      const { code, stderr } = await doppel(...argv, '--seed', '1.5')
      expect(code, argv[0]).toBe(1)
      expect(stderr.split('\n')[0], argv[0]).toBe(`doppel ${argv[0]}: --seed must be an integer, not "1.5"`)
    }
    expect(await doppel('run', 'scenarios/cloud-auth/roles-crud.yaml', '--seed', '7', '--reporter', 'tap')).toMatchObject({ code: 0, stderr: '' })
  })

  it('--port is checked the same on every command that listens', async () => {
    for (const argv of [['serve'], ['record', '--upstream', 'http://127.0.0.1:8200', '--out', 'x'], ['compare', '--upstream', 'http://127.0.0.1:8200']]) {
      const { code, stderr } = await doppel(...argv, '--port', '8x')
      expect(code, argv[0]).toBe(1)
      expect(stderr.split('\n')[0], argv[0]).toBe(`doppel ${argv[0]}: --port must be a port number from 0 to 65535, not "8x"`)
    }
  })
})
