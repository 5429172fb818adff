// `npm run bench:compare -- <revision> [operation…]` times this tree and another revision side by side in
// process: a bad revision or operation is refused with its usage, and a short run prints a line a round.
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'

const COMPARE = new URL('../../bench/compare.ts', import.meta.url).pathname
const run = (args: string[], env: Record<string, string> = {}) =>
  promisify(execFile)(process.execPath, [COMPARE, ...args], { env: { ...process.env, ...env } }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => error,
  )

describe('npm run bench:compare', () => {
  it('refuses no revision, an unknown operation and a name that is no revision, with exit code 2', async () => {
    const usage = 'usage: npm run bench:compare -- <revision> [role|ec2|iam|deprecate…]'
    expect(await run([])).toMatchObject({ code: 2, stderr: `${usage}\n` })
    expect(await run(['HEAD', 'ec3'])).toMatchObject({ code: 2, stderr: `unknown operation: ec3\n${usage}\n` })
    expect(await run(['no-such-revision'])).toMatchObject({ code: 2, stderr: 'not a revision of this repository: no-such-revision\n' })
  })

  it('times this tree against HEAD, one line a round', async () => {
    const { code, stdout } = await run(['HEAD', 'role'], { ROUNDS: '2', CALLS: '20' })
    expect(code).toBe(0)
    const rounds = stdout.split('\n').filter((line) => line.startsWith('role'))
    expect(rounds).toHaveLength(2)
    for (const line of rounds) expect(line).toMatch(/^role +round \d: no-op \d+, [0-9a-f]+ \d+ \(\d+\.\d{3}×\), this tree \d+ \(\d+\.\d{3}×\); this tree ÷ [0-9a-f]+ \d+\.\d{3}$/)
  }, 60_000)
})
