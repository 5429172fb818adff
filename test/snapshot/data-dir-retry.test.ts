/** The data directory's retries, through an fs layer that runs out of space (ENOSPC) and a wall clock the test moves. */
import * as fsPromises from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { openDataDir as open, type DataDir, type DataDirFs } from '../../src/features/snapshot/index.ts'
import { createDoppel } from '../../src/index.ts'
import { doppelWarningsDuring } from '../support/doppel-warnings.ts'
import { tempDir } from '../support/temp-dir.ts'

const opened: DataDir[] = []
// Each test's data directory is stopped after it, before tempDir removes the folders after the file: a failed
// test must not leave periodic writes going into a folder being removed.
afterEach(async () => {
  for (const data of opened.splice(0)) await data.close().catch(() => undefined)
})

async function openDataDir(...args: Parameters<typeof open>): Promise<DataDir> {
  const data = await open(...args)
  opened.push(data)
  return data
}

/** A data directory's path in a fresh temporary folder, removed after the file's tests. */
const stateDir = () => join(tempDir('retry'), 'state')

/** An instance restored from `dir` holds each of the roles `names`. */
async function expectRolesAfterRestart(dir: string, names: string[]): Promise<void> {
  const restarted = createDoppel()
  await (await openDataDir(restarted, { dir })).close()
  for (const name of names) {
    expect((await restarted.fetch(`http://doppel.test/v1/auth/cloud/role/${name}`, { headers: { 'X-Service-Token': 'root' } })).status).toBe(200)
  }
}

/** node:fs/promises, except that writing file contents fails with ENOSPC while `full` is set; counts the attempts. */
function fillableDisk() {
  const disk = { full: false, attempts: 0 }
  const fs: DataDirFs = {
    ...fsPromises,
    open: (async (...args: Parameters<typeof fsPromises.open>) => {
      const handle = await fsPromises.open(...args)
      const writeFile = handle.writeFile.bind(handle)
      handle.writeFile = async (...rest: Parameters<typeof handle.writeFile>) => {
        disk.attempts++
        if (disk.full) throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' })
        return writeFile(...rest)
      }
      return handle
    }) as typeof fsPromises.open,
  }
  return { disk, fs }
}

const role = (doppel: ReturnType<typeof createDoppel>, name: string) =>
  doppel.fetch(`http://doppel.test/v1/auth/cloud/role/${name}`, {
    method: 'POST',
    headers: { 'X-Service-Token': 'root' },
    body: JSON.stringify({ auth_type: 'ec2', bound_ami_id: 'ami-1' }),
  })

const settle = () => new Promise((resolve) => setTimeout(resolve, 60))

/** Polls until `check` holds; fails after two seconds. */
async function until(check: () => boolean): Promise<void> {
  for (const deadline = Date.now() + 2000; !check(); await new Promise((resolve) => setTimeout(resolve, 5))) {
    if (Date.now() > deadline) throw new Error('timed out')
  }
}

describe('--data-dir on a full disk', () => {
  it('an onError that throws turns no write that worked into a failure, and the retries go on', async () => {
    const dir = stateDir()
    const { disk, fs } = fillableDisk()
    let now = 1_000_000
    const lines: string[] = []
    const warnings = await doppelWarningsDuring(async () => {
      const doppel = createDoppel()
      const data = await openDataDir(doppel, {
        dir,
        interval: '1h',
        fs,
        wallClock: () => now,
        onError: (line) => {
          lines.push(line)
          throw new Error('the log is closed')
        },
      })
      disk.full = true
      expect((await role(doppel, 'one')).status).toBe(204)
      await expect(data.flush()).rejects.toThrow('ENOSPC')
      disk.full = false
      now += 1000
      // The write works: its flush resolves, though the line saying so threw.
      await data.flush()
      expect((await role(doppel, 'two')).status).toBe(204)
      await data.flush()
      await data.close()
    })
    expect(lines).toEqual([expect.stringMatching(/^doppel: cannot write the snapshot .*ENOSPC/), `doppel: writing snapshots to ${dir} works again`])
    expect(warnings).toEqual(['doppel: the onError callback threw (the log is closed); doppel goes on, and later throws are not reported'])
    await expectRolesAfterRestart(dir, ['one', 'two'])
  })

  it('reports ENOSPC once, backs off on the wall clock, recovers when space returns, and a restart has every write', async () => {
    const dir = stateDir()
    const { disk, fs } = fillableDisk()
    let now = 1_000_000
    const lines: string[] = []
    const doppel = createDoppel()
    const data = await openDataDir(doppel, { dir, interval: '10ms', fs, wallClock: () => now, onError: (line) => lines.push(line) })
    disk.full = true
    expect((await role(doppel, 'one')).status).toBe(204)
    await until(() => lines.length > 0)
    expect(lines).toEqual([expect.stringMatching(new RegExp(`^doppel: cannot write the snapshot ${dir}/root.snapshot.json: ENOSPC: no space left on device, write; retrying until it works$`))])
    // Waiting out the first delay (1s) on the wall clock, not the interval: no attempt before it.
    const attempts = disk.attempts
    await settle()
    expect(disk.attempts).toBe(attempts)
    now += 1000
    await until(() => disk.attempts > attempts)
    await settle()
    expect(disk.attempts).toBe(attempts + 1)
    // The next delay is twice as long.
    now += 1000
    await settle()
    expect(disk.attempts).toBe(attempts + 1)
    now += 1000
    await until(() => disk.attempts > attempts + 1)
    await settle()
    expect(disk.attempts).toBe(attempts + 2)
    expect(lines).toHaveLength(1)

    disk.full = false
    expect((await role(doppel, 'two')).status).toBe(204)
    now += 4000
    await until(() => lines.length > 1)
    expect(lines).toEqual([lines[0], `doppel: writing snapshots to ${dir} works again`])
    await data.close()

    await expectRolesAfterRestart(dir, ['one', 'two'])
  })

  it('a full disk at stop makes close fail', async () => {
    const dir = stateDir()
    const { disk, fs } = fillableDisk()
    const doppel = createDoppel()
    const data = await openDataDir(doppel, { dir, interval: '1h', fs })
    expect((await role(doppel, 'one')).status).toBe(204)
    disk.full = true
    await expect(data.close()).rejects.toThrow(`doppel serve: the state at stop was not written to ${dir}/root.snapshot.json: ENOSPC`)
  })
})
