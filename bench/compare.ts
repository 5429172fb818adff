// npm run bench:compare -- <revision> [operation…]: the in-process (MSW) operations of this tree and of another
// revision, side by side in one process, against the same no-op handler. Runs of the bench minutes apart
// differ by a few per cent with the machine's state; here both trees answer alternately, call by call, so a
// change of 1% shows. Operations: role, ec2, iam, deprecate (default: ec2 and iam). ROUNDS (default 3) rounds
// of CALLS (default 2,000) calls each, after 200 uncounted.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setupServer } from 'msw/node'
import { createHandlers } from '../src/faces/msw/index.ts'
import { prepare } from './fixtures.ts'
import { noOpHandler, OPERATION_NAMES, operations, sequence } from './in-process.ts'
import { FRESH_POOL_EVERY, freshConnectionPool, median, microsOf } from './lib.ts'

const [revision, ...asked] = process.argv.slice(2)
const unknown = asked.filter((name) => !(OPERATION_NAMES as readonly string[]).includes(name))
if (revision === undefined || revision.startsWith('-') || unknown.length > 0) {
  process.stderr.write(`${unknown.length > 0 ? `unknown operation: ${unknown.join(', ')}\n` : ''}usage: npm run bench:compare -- <revision> [${OPERATION_NAMES.join('|')}…]\n`)
  process.exit(2)
}
const chosen = asked.length > 0 ? asked : ['ec2', 'iam']
const rounds = Number(process.env.ROUNDS ?? 3)
const calls = Number(process.env.CALLS ?? 2000)
const root = new URL('..', import.meta.url).pathname
let commit: string
try {
  commit = execFileSync('git', ['rev-parse', '--short', '--verify', `${revision}^{commit}`], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim()
} catch {
  process.stderr.write(`not a revision of this repository: ${revision}\n`)
  process.exit(2)
}

// The other revision's files, with this tree's node_modules: its sources run as they are, its bench set-up too.
const other = mkdtempSync(join(tmpdir(), 'doppel-compare-'))
try {
  execFileSync('sh', ['-c', `git archive ${commit} | tar -x -C "${other}"`], { cwd: root })
  symlinkSync(join(root, 'node_modules'), join(other, 'node_modules'))
  const { createHandlers: otherHandlers } = (await import(join(other, 'src/faces/msw/index.ts'))) as { createHandlers: typeof createHandlers }
  const { prepare: otherPrepare } = (await import(join(other, 'bench/fixtures.ts'))) as { prepare: typeof prepare }
  const here = await prepare()
  const there = await otherPrepare()
  const [FLOOR, HERE, THERE] = ['http://floor.doppel.test', 'http://here.doppel.test', 'http://there.doppel.test']
  const server = setupServer(noOpHandler(FLOOR), ...createHandlers(here.doppel, { baseUrl: HERE, cloud: false }), ...otherHandlers(there.doppel, { baseUrl: THERE, cloud: false }))
  server.listen({ onUnhandledFrame: 'error' })
  try {
    process.stdout.write(`this tree against ${commit} (${revision}), in process; µs a call, medians; ratios to the no-op handler\n`)
    for (const name of chosen) {
      const requests = (prepared: typeof here) => operations(prepared).find((operation) => operation.name === name)!.calls
      const floor = sequence(FLOOR, requests(here))
      const mine = sequence(HERE, requests(here))
      const theirs = sequence(THERE, requests(there))
      for (let round = 0; round < rounds; round++) {
        const times = { floor: [] as number[], here: [] as number[], there: [] as number[] }
        for (let i = 0; i < 200 + calls; i++) {
          if (i % FRESH_POOL_EVERY === 0) await freshConnectionPool()
          const f = await microsOf(floor)
          // Which tree answers first alternates, so that neither always follows the floor.
          let h: number
          let t: number
          if (i % 2 === 0) {
            h = await microsOf(mine)
            t = await microsOf(theirs)
          } else {
            t = await microsOf(theirs)
            h = await microsOf(mine)
          }
          if (i < 200) continue
          times.floor.push(f)
          times.here.push(h)
          times.there.push(t)
        }
        const [f, h, t] = [median(times.floor), median(times.here), median(times.there)]
        process.stdout.write(
          `${name.padEnd(9)} round ${round + 1}: no-op ${f.toFixed(0)}, ${commit} ${t.toFixed(0)} (${(t / f).toFixed(3)}×), this tree ${h.toFixed(0)} (${(h / f).toFixed(3)}×); this tree ÷ ${commit} ${(h / t).toFixed(3)}\n`,
        )
      }
    }
  } finally {
    server.close()
  }
} finally {
  rmSync(other, { recursive: true, force: true })
}
