// The Go program of test/real-server/oracle, built from the modules this directory's go.mod pins and run
// for the length of a test file: Vault's own code answering what doppel's vault profile emulates. Needs Go
// 1.25.3 or newer, as scripts/real-server.sh does; without it the tests skip, and under CI=true they fail.
import { execFileSync, spawn, type ChildProcessByStdio } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import type { Readable, Writable } from 'node:stream'
import { afterAll, beforeAll } from 'vitest'

/** Whether the machine's Go can build the oracle; says why not, and throws under CI=true. */
export function goAvailable(): boolean {
  try {
    const version = execFileSync('go', ['env', 'GOVERSION'], { encoding: 'utf8' }).trim()
    const [major = 0, minor = 0, patch = 0] = version.replace(/^go/, '').split('.').map(Number)
    if (major > 1 || minor > 25 || (minor === 25 && patch >= 3)) return true
  } catch {}
  const why = "the Go oracle of Vault's own code needs Go 1.25.3 or newer (scripts/real-server.sh checks for it)"
  if (process.env.CI === 'true') throw new Error(why)
  console.warn(`oracle tests skipped: ${why}`)
  return false
}

/** The oracle, running: one case a line in, one answer a line out, in order. */
export class VaultOracle {
  readonly #dir = mkdtempSync(join(tmpdir(), 'doppel-oracle-'))
  readonly #child: ChildProcessByStdio<Writable, Readable, null>
  readonly #waiting: ((answer: unknown) => void)[] = []

  constructor() {
    const binary = join(this.#dir, 'oracle')
    execFileSync('go', ['build', '-trimpath', '-o', binary, './oracle'], { cwd: 'test/real-server', env: { ...process.env, GOFLAGS: '-mod=readonly' }, stdio: 'inherit' })
    this.#child = spawn(binary, [], { stdio: ['pipe', 'pipe', 'inherit'] })
    createInterface({ input: this.#child.stdout }).on('line', (line) => this.#waiting.shift()?.(JSON.parse(line)))
  }

  ask<T>(question: Record<string, unknown>): Promise<T> {
    return new Promise((resolve) => {
      this.#waiting.push(resolve as (answer: unknown) => void)
      this.#child.stdin.write(`${JSON.stringify(question)}\n`)
    })
  }

  close(): void {
    this.#child.stdin.end()
    rmSync(this.#dir, { recursive: true, force: true })
  }
}

/** The oracle of a describe block's tests: built before them (a first build takes a while), stopped after. */
export function vaultOracle(): () => VaultOracle {
  let oracle: VaultOracle | undefined
  beforeAll(() => {
    oracle = new VaultOracle()
  }, 600_000)
  afterAll(() => oracle?.close())
  return () => oracle!
}
