import { spawnSync } from 'node:child_process'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { bundle } from '../scripts/bundle.ts'
import { figure, median, type Figure } from './lib.ts'

const ROOT_URL = new URL('..', import.meta.url)
const ROOT = fileURLToPath(ROOT_URL)
const CACHE = join(tmpdir(), 'doppel-bench-compile-cache')

const MSW_ONLY = `await import('msw'); await import('msw/node')`

// Counts key generation while doppel starts: none may happen.
const DOPPEL = `
import crypto from 'node:crypto'
let generated = 0
for (const name of ['generateKeyPair', 'generateKeyPairSync', 'generateKey', 'generateKeySync']) {
  const original = crypto[name]
  crypto[name] = (...args) => { generated++; return original(...args) }
}
const { createDoppel } = await import('./dist/index.js')
const { createHandlers } = await import('./dist/faces/msw/index.js')
await import('msw/node')
const doppel = createDoppel({ seed: 1 })
doppel.cloud
createHandlers(doppel)
process.stdout.write(JSON.stringify({ generated }))
`

function timeProcess(source: string): { ms: number; stdout: string } {
  const start = process.hrtime.bigint()
  // Both sides get Node's on-disk compile cache (the bin enables it too), so neither pays to re-strip types.
  const result = spawnSync(process.execPath, ['--input-type=module', '-e', source], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, NODE_COMPILE_CACHE: CACHE } })
  const ms = Number(process.hrtime.bigint() - start) / 1e6
  if (result.status !== 0) throw new Error(`start-up probe failed: ${result.stderr}`)
  return { ms, stdout: result.stdout }
}

/**
 * A fresh process that imports doppel as a user's project does (the built package's JavaScript, dist/,
 * bundled first as the build bundles it) and creates an emulator with the fake cloud, against msw alone.
 */
export async function benchStartup(runs = 9): Promise<Figure[]> {
  await bundle(ROOT_URL, new URL('dist/', ROOT_URL))
  const ratios: number[] = []
  const doppelTimes: number[] = []
  const mswTimes: number[] = []
  let generated = 0
  timeProcess(MSW_ONLY)
  timeProcess(DOPPEL)
  for (let i = 0; i < runs; i++) {
    const msw = timeProcess(MSW_ONLY).ms
    const doppel = timeProcess(DOPPEL)
    generated += JSON.parse(doppel.stdout).generated
    mswTimes.push(msw)
    doppelTimes.push(doppel.ms)
    ratios.push(doppel.ms / msw)
  }
  return [
    figure('start-up: import doppel (dist/) + create emulator with fake cloud / import msw', median(ratios), 'x', '<= 1.5',
      `${median(doppelTimes).toFixed(0)} ms vs ${median(mswTimes).toFixed(0)} ms`),
    figure('start-up: key generations', generated, 'count', '<= 0'),
  ]
}
