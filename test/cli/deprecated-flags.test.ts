// serve's old spellings, read for one more release: --seed <file> (now --fixtures) and --random-seed <n>
// (now --seed). Each still does what it did, and says once on stderr what it is now.
import { afterEach, describe, expect, it } from 'vitest'
import { serve } from '../../src/cli/serve-command.ts'
import type { DoppelServer } from '../../src/index.ts'
import { fakeIo } from './helpers.ts'

const FIXTURES = 'scenarios/fixtures/example.yaml'
const CLOCK = ['--clock-start', '2026-01-01T00:00:00Z', '--frozen-clock']

const handles: DoppelServer[] = []
afterEach(async () => {
  await Promise.all(handles.splice(0).map((handle) => handle.close()))
})

/** The emulator's state after starting `doppel serve <flags>`, and what it printed on stderr. */
async function stateOf(...flags: string[]): Promise<{ state: unknown; stderr: string }> {
  const { out, io } = fakeIo()
  const handle = (await serve(['--port', '0', '--quiet', ...CLOCK, ...flags], io))!
  handles.push(handle)
  const response = await fetch(`${handle.main.url}/_doppel/state`, { headers: { 'X-Service-Token': 'root' } })
  expect(response.status).toBe(200)
  return { state: await response.json(), stderr: out.stderr }
}

describe('doppel serve, old flag spellings', () => {
  it('--seed <file> still loads the fixture file, and warns that it is now --fixtures <file>', async () => {
    const now = await stateOf('--fixtures', FIXTURES, '--seed', '5')
    expect(now.stderr).toBe('')
    expect(JSON.stringify(now.state)).toContain('i-0123456789abcdef0')
    const old = await stateOf('--seed', FIXTURES, '--seed', '5')
    expect(old.state).toEqual(now.state)
    expect(old.stderr).toBe('doppel serve: warning: --seed <file> is now --fixtures <file> (--seed takes the random seed); the old spelling goes in the next release\n')
  })

  it('--random-seed <n> is still the random seed, and warns that it is now --seed <n>', async () => {
    const now = await stateOf('--fixtures', FIXTURES, '--seed', '5')
    const old = await stateOf('--fixtures', FIXTURES, '--random-seed', '5')
    expect(old.state).toEqual(now.state)
    expect((await stateOf('--fixtures', FIXTURES, '--seed', '6')).state).not.toEqual(now.state)
    expect(old.stderr).toBe('doppel serve: warning: --random-seed <n> is now --seed <n>; the old spelling goes in the next release\n')
  })

  it('two random seeds, old and new spelling, are a usage error', async () => {
    await expect(serve(['--port', '0', '--seed', '1', '--random-seed', '2'], fakeIo().io)).rejects.toThrow('doppel serve: --seed takes one random seed, not "1" and "2"')
  })
})
