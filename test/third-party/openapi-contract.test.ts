// The published contract holds: schemathesis (from the Python registry, .venv-clients) reads doppel's own
// OpenAPI document from `doppel serve` (GET /_doppel/openapi.json) and sends what it generates from it, in both
// profiles. Every answer must have a documented status, content type and schema, and the service profile
// answers no 5xx (the vault profile answers Vault's 500s where Vault does: docs/limits-and-differences.md).
// Bounded for CI: a fixed seed, at most MAX_EXAMPLES cases an operation, MAX_SECONDS in all per profile.
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CLIENTS_VENV, pythonModulesPresent, VENV_HINT, VENV_PYTHON } from './python-modules.ts'
import { stopGently } from './cloud-setup.ts'
import { startServe, type ServeProcess } from '../server/serve-process.ts'
import { tempDir } from '../support/temp-dir.ts'

const SEED = '36'
const MAX_EXAMPLES = '5'
const MAX_SECONDS = 60
const present = pythonModulesPresent(['schemathesis'], VENV_PYTHON)
if (!present) console.warn(`schemathesis run skipped: ${VENV_PYTHON} is missing (${VENV_HINT})`)

const PROFILES = [
  { profile: 'service', token: 'X-Service-Token', checks: ['not_a_server_error'] },
  { profile: 'vault', token: 'X-Vault-Token', checks: [] },
] as const

for (const { profile, token, checks } of PROFILES) {
  describe.skipIf(!present)(`schemathesis against doppel serve --profile ${profile} and its own OpenAPI document`, () => {
    let serve: ServeProcess
    beforeAll(async () => {
      serve = await startServe(['--profile', profile])
    })
    afterAll(() => stopGently(serve))

    it(`finds every answer documented${checks.length > 0 ? ', and no 5xx' : ''}`, { timeout: (MAX_SECONDS + 120) * 1000 }, async () => {
      const registry = await fetch(`${serve.url}/_doppel/registry/tokens`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ organizations: ['acme'] }),
      })
      const { token: registryToken } = (await registry.json()) as { token: string }
      const reports = tempDir('schemathesis')
      const run = await promisify(execFile)(
        `${CLIENTS_VENV}st`,
        [
          'run',
          `${serve.url}/_doppel/openapi.json`,
          '--url',
          serve.url,
          '--checks',
          [...checks, 'status_code_conformance', 'content_type_conformance', 'response_schema_conformance'].join(','),
          '--phases',
          'coverage,fuzzing',
          '--max-examples',
          MAX_EXAMPLES,
          '--seed',
          SEED,
          '--max-time',
          String(MAX_SECONDS),
          '--header',
          `${token}: root`,
          '--header',
          `Authorization: Bearer ${registryToken}`,
          '--report-dir',
          reports,
          '--no-color',
        ],
        { cwd: reports, env: { PATH: process.env.PATH ?? '', HOME: reports }, timeout: (MAX_SECONDS + 100) * 1000, maxBuffer: 64 * 1024 * 1024 },
      ).then(
        ({ stdout }) => ({ passed: true, stdout }),
        (error: { stdout: string; stderr: string }) => ({ passed: false, stdout: `${error.stdout}\n${error.stderr}` }),
      )
      const summary = /=+ SUMMARY =+([\s\S]*)$/.exec(run.stdout)?.[1] ?? run.stdout
      console.info(`schemathesis, ${profile} profile:${summary.replace(/\n{2,}/g, '\n')}`)
      expect(run.passed, run.stdout.slice(-20_000)).toBe(true)
      expect(run.stdout).toMatch(/Tested: [1-9]\d*/)
    })
  })
}
