// `npm run bench -- <section>` takes only the section names the bench prints: an unknown one is refused
// before anything runs, and the last results stay as they were. Each section runs in a process of its own
// and hands its figures back over IPC.
import { execFile, fork } from 'node:child_process'
import { once } from 'node:events'
import { existsSync, readFileSync } from 'node:fs'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'

const RUN = new URL('../../bench/run.ts', import.meta.url).pathname
const SECTION = new URL('../../bench/section.ts', import.meta.url).pathname
const RESULTS = new URL('../../bench/results.json', import.meta.url).pathname
const SECTIONS = ['in-process', 'server', 'scale', 'soak', 'startup', 'identity', 'tenants']

const results = () => (existsSync(RESULTS) ? readFileSync(RESULTS, 'utf8') : undefined)

describe('npm run bench -- <section>', () => {
  for (const args of [['startup-time'], ['start'], ['startup', 'MSW']]) {
    it(`refuses ${args.join(' ')} with a usage error naming the sections, and leaves bench/results.json alone`, async () => {
      const before = results()
      const started = performance.now()
      const failure = await promisify(execFile)(process.execPath, ['--expose-gc', RUN, ...args]).then(
        () => undefined,
        (error: { code: number; stdout: string; stderr: string }) => error,
      )
      expect(failure?.code).toBe(2)
      expect(failure?.stderr).toContain(`sections: ${SECTIONS.join(' ')}`)
      expect(failure?.stderr).toContain(`unknown section: ${args.at(-1)}`)
      expect(failure?.stdout).toBe('')
      expect(results()).toBe(before)
      // Refused before any section's module (and so doppel) was imported.
      expect(performance.now() - started).toBeLessThan(5_000)
    })
  }

  it('runs a section in a process of its own, which sends its figures and ends', async () => {
    const child = fork(SECTION, ['identity'], { execArgv: ['--expose-gc'], stdio: ['ignore', 'pipe', 'pipe', 'ipc'] })
    const messages: unknown[] = []
    child.on('message', (message) => messages.push(message))
    const [code] = (await once(child, 'exit')) as [number]
    expect(code).toBe(0)
    expect(messages).toHaveLength(1)
    const names = (messages[0] as { name: string; met: boolean }[]).map((figure) => figure.name)
    expect(names).toContain('identity document: parse + verify pkcs7 / node:crypto verify')
  }, 60_000)

  it('refuses to run without the IPC channel run.ts opens, naming the sections', async () => {
    const failure = await promisify(execFile)(process.execPath, [SECTION, 'startup']).then(
      () => undefined,
      (error: { code: number; stderr: string }) => error,
    )
    expect(failure?.code).toBe(2)
    expect(failure?.stderr).toContain(SECTIONS.join(' '))
  })
})
