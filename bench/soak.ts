import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { figure, type Figure } from './lib.ts'

const LOGINS = 20_000

// A child process with --expose-gc: many ec2 logins whose tokens live 60 s, then the clock moves past
// them. The expiration sweep must hand back what the tokens took. The warm-up fills the journal to its
// bound (it keeps the last journalLimit exchanges), so its memory is the same before and after.
const SOAK_PROBE = `
const { prepare, AUTH, ROOT } = await import('./bench/fixtures.ts')
const p = await prepare()
const set = await p.doppel.fetch(AUTH + '/role/ec2-bench', { method: 'POST', headers: ROOT, body: '{"token_ttl":"60s","token_max_ttl":"60s"}' })
if (set.status !== 204) throw new Error('role update failed: ' + set.status)
// After a turn of the event loop: V8 keeps every WeakRef target made in the current job (a cloned
// Request makes one) until the job ends, and a loop of in-process calls never ends it by itself.
const heap = async () => { await new Promise((resolve) => setImmediate(resolve)); globalThis.gc(); globalThis.gc(); return process.memoryUsage().heapUsed }
const login = async () => {
  const res = await p.doppel.fetch(AUTH + '/login', { method: 'POST', body: p.ec2Login })
  if (res.status !== 200) throw new Error('login failed: ' + await res.text())
}
for (let i = 0; i < p.doppel.journal.limit + 200; i++) await login()
p.doppel.clock.advance('2m')
const start = await heap()
for (let i = 0; i < ${LOGINS}; i++) await login()
const grown = await heap()
const tokens = () => Object.keys(p.doppel.store.snapshot().tokens ?? {}).length
const live = tokens()
p.doppel.clock.advance('2m')
const after = await heap()
process.stdout.write(JSON.stringify({ start, grown, after, live, left: tokens() }))
`

/** Memory after many logins whose tokens expired, against the memory those tokens took. */
export function benchSoak(): Figure[] {
  const root = fileURLToPath(new URL('..', import.meta.url))
  const result = spawnSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', SOAK_PROBE], { cwd: root, encoding: 'utf8' })
  if (result.status !== 0) throw new Error(`soak probe failed: ${result.stderr}`)
  const { start, grown, after, live, left } = JSON.parse(result.stdout) as Record<string, number>
  if (live! < LOGINS || left !== 0) throw new Error(`soak: ${live} tokens after the logins, ${left} after expiry`)
  const mb = (bytes: number) => (bytes / 1e6).toFixed(1)
  return [
    figure(`soak: heap kept after ${LOGINS / 1000}k logins' tokens expired / heap they took`, (after! - start!) / (grown! - start!), 'x', '<= 0.1',
      `${mb(after! - start!)} MB kept of ${mb(grown! - start!)} MB`),
  ]
}
