import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { getContainerRuntimeClient } from 'testcontainers'
import { describe, expect, it } from 'vitest'

const BIN = new URL('../../bin/doppel.js', import.meta.url).pathname
const runtime = await getContainerRuntimeClient().then(
  () => true,
  () => false,
)

describe('npm run conformance:vault', () => {
  it.skipIf(runtime)('reports the suite skipped with the reason, and exits 0, when no container runtime is available', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [BIN, 'conformance-vault'], { timeout: 60_000 })
    expect(stdout).toMatch(/^conformance against Vault skipped: no container runtime available \(.+\)$/m)
    expect(stdout.trim().split('\n').at(-1)).toBe('0 passed, 0 failed, 1 skipped')
  })
})
