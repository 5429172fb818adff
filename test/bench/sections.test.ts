// `npm run bench -- <section>` takes only the section names the bench prints: an unknown one is refused
// before anything runs, and the last results stay as they were.
import { execFile } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'

const RUN = new URL('../../bench/run.ts', import.meta.url).pathname
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
})
