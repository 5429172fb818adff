/** `doppel serve --data-dir` when the disk or the directory misbehaves (issue 29): nothing written is lost. */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { chmod, chown, lstat, mkdir, readdir, readFile, rename, rm, stat, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { dataDir, refused, send, start, stop, until } from './data-dir-process.ts'

const role = (ami: string) => ({ auth_type: 'ec2', bound_ami_id: ami })
const FAST = ['--snapshot-interval', '20ms']

describe('doppel serve --data-dir when writes fail', () => {
  it('reports a failing write once, retries until it works, says so, and a restart keeps every write', async () => {
    const dir = await dataDir()
    let server = await start(dir, FAST)
    expect((await send(server, 'POST', '/v1/auth/cloud/role/before', role('ami-1'))).status).toBe(204)
    const file = join(dir, 'root.snapshot.json')
    await until(async () => (await readFile(file, 'utf8').catch(() => '')).includes('ami-1'), 'the first write')
    // A directory where the snapshot goes: the rename over it fails until it is gone.
    await rm(file)
    await mkdir(join(file, 'stray'), { recursive: true })
    // The old fixed temporary name blocks nothing now.
    await mkdir(`${file}.tmp`)
    expect((await send(server, 'POST', '/v1/auth/cloud/role/during', role('ami-2'))).status).toBe(204)
    await until(() => server.stderr().includes('cannot write'), 'the failure line')
    await new Promise((resolve) => setTimeout(resolve, 200))
    const failures = server.stderr().trimEnd().split('\n')
    expect(failures).toHaveLength(1)
    expect(failures[0]).toContain(`cannot write the snapshot ${file}: `)
    expect(failures[0]).toMatch(/EISDIR|EEXIST|ENOTEMPTY/)
    await rm(file, { recursive: true })
    expect((await send(server, 'POST', '/v1/auth/cloud/role/after', role('ami-3'))).status).toBe(204)
    await until(() => server.stderr().includes('works again'), 'the recovery line')
    expect(await readFile(file, 'utf8')).toContain('ami-3')
    expect(await stop(server)).toBe(0)
    expect(server.stderr().trimEnd().split('\n')).toHaveLength(2)

    server = await start(dir)
    for (const name of ['before', 'during', 'after']) expect((await send(server, 'GET', `/v1/auth/cloud/role/${name}`)).status).toBe(200)
    expect(await stop(server)).toBe(0)
  })

  it('a stray file where the tenants folder goes: reported, retried, and the tenant written once it is gone', async () => {
    const dir = await dataDir()
    let server = await start(dir, FAST)
    await writeFile(join(dir, 'tenants'), 'stray')
    expect((await send(server, 'POST', '/t/a/v1/auth/cloud/role/web', role('ami-1'))).status).toBe(204)
    await until(() => server.stderr().includes('cannot write'), 'the failure line')
    expect(server.stderr()).toContain(join(dir, 'tenants'))
    await rm(join(dir, 'tenants'))
    await until(() => server.stderr().includes('works again'), 'the recovery line')
    expect(await stop(server)).toBe(0)
    server = await start(dir)
    expect((await send(server, 'GET', '/t/a/v1/auth/cloud/role/web')).status).toBe(200)
    expect(await stop(server)).toBe(0)
  })

  it('a last write that fails at stop exits 1 with one line', async () => {
    const dir = await dataDir()
    const server = await start(dir, ['--snapshot-interval', '1h'])
    expect((await send(server, 'POST', '/v1/auth/cloud/role/web', role('ami-1'))).status).toBe(204)
    await mkdir(join(dir, 'root.snapshot.json', 'stray'), { recursive: true })
    expect(await stop(server)).toBe(1)
    expect(server.stderr().trimEnd().split('\n')).toEqual([expect.stringContaining(`the state at stop was not written to ${join(dir, 'root.snapshot.json')}: `)])
  })

  it('never writes through a link planted at the temporary or the snapshot path', async () => {
    const dir = await dataDir()
    const victim = join(dir, '..', 'victim')
    await writeFile(victim, 'precious')
    const server = await start(dir, FAST)
    const file = join(dir, 'root.snapshot.json')
    await symlink(victim, `${file}.tmp`)
    await symlink(victim, file)
    expect((await send(server, 'POST', '/v1/auth/cloud/role/web', role('ami-1'))).status).toBe(204)
    expect(await stop(server)).toBe(0)
    expect(await readFile(victim, 'utf8')).toBe('precious')
    expect((await lstat(file)).isFile()).toBe(true)
    expect(await readFile(file, 'utf8')).toContain('ami-1')
  })

  // Issue 34: a tenants folder, or the data directory itself, swapped for a link while the server runs.
  it('never writes through a tenants folder swapped for a link mid-run: reported, and nothing lands where it points', async () => {
    const dir = await dataDir()
    const server = await start(dir, FAST)
    expect((await send(server, 'POST', '/t/a/v1/auth/cloud/role/web', role('ami-1'))).status).toBe(204)
    const tenants = join(dir, 'tenants')
    await until(async () => (await readFile(join(tenants, 'a.snapshot.json'), 'utf8').catch(() => '')).includes('ami-1'), 'the tenant write')
    const elsewhere = join(dir, '..', 'elsewhere')
    await mkdir(elsewhere, { mode: 0o700 })
    await rename(tenants, join(dir, 'tenants-moved'))
    await symlink(elsewhere, tenants)
    expect((await send(server, 'POST', '/t/a/v1/auth/cloud/role/more', role('ami-2'))).status).toBe(204)
    await until(() => server.stderr().includes('cannot write'), 'the failure line')
    expect(server.stderr()).toContain(`${tenants} is a symbolic link`)
    expect(await readdir(elsewhere)).toEqual([])
    expect(await stop(server)).toBe(1)
    expect(await readdir(elsewhere)).toEqual([])
  })

  it('never writes into a data directory swapped for a link to another folder mid-run', async () => {
    const dir = await dataDir()
    const server = await start(dir, FAST)
    expect((await send(server, 'POST', '/v1/auth/cloud/role/web', role('ami-1'))).status).toBe(204)
    await until(async () => (await readFile(join(dir, 'root.snapshot.json'), 'utf8').catch(() => '')).includes('ami-1'), 'the first write')
    const elsewhere = join(dir, '..', 'elsewhere')
    await mkdir(elsewhere, { mode: 0o700 })
    await rename(dir, join(dir, '..', 'moved'))
    await symlink(elsewhere, dir)
    expect((await send(server, 'POST', '/v1/auth/cloud/role/more', role('ami-2'))).status).toBe(204)
    await until(() => server.stderr().includes('cannot write'), 'the failure line')
    expect(server.stderr()).toContain('is no longer the directory checked at start')
    expect(await readdir(elsewhere)).toEqual([])
    expect(await stop(server)).toBe(1)
    expect(await readdir(elsewhere)).toEqual([])
  })

  for (const where of ['root.snapshot.json', 'tenants/a.snapshot.json']) {
    it(`a FIFO as ${where} is refused at start at once, without waiting for a writer`, async () => {
      const dir = await dataDir()
      await mkdir(join(dir, 'tenants'), { recursive: true, mode: 0o700 })
      execFileSync('mkfifo', ['-m', '600', join(dir, where)])
      const { code, stderr, ms } = await refused(['--data-dir', dir])
      expect(code).toBe(1)
      expect(stderr).toBe(`doppel serve: cannot read the snapshot ${join(dir, where)}: it is a FIFO, not a regular file\n`)
      expect(ms).toBeLessThan(5000)
    })
  }

  it('a snapshot that is a link is refused at start', async () => {
    const dir = await dataDir()
    await mkdir(dir, { mode: 0o700 })
    await writeFile(join(dir, '..', 'elsewhere.json'), '{}')
    await symlink(join(dir, '..', 'elsewhere.json'), join(dir, 'root.snapshot.json'))
    const { code, stderr } = await refused(['--data-dir', dir])
    expect(code).toBe(1)
    expect(stderr).toBe(`doppel serve: cannot read the snapshot ${join(dir, 'root.snapshot.json')}: it is a symbolic link\n`)
  })
})

describe('doppel serve --data-dir refuses a directory it cannot use, at once', () => {
  const cases: [string, () => Promise<string>, RegExp][] = [
    ['that cannot be made (/proc/nope)', async () => '/proc/nope', /cannot use the data directory \/proc\/nope: ENOENT/],
    ['that cannot be written (/proc/self)', async () => '/proc/self', /cannot use the data directory \/proc\/self: (cannot write in it|it is owned)/],
    ['that is a file', async () => {
      const dir = await dataDir()
      await writeFile(dir, '')
      return dir
    }, /it is not a directory/],
    ['that others can write', async () => {
      const dir = await dataDir()
      await mkdir(dir)
      await chmod(dir, 0o777)
      return dir
    }, /it is writable by others \(mode 0777\); chmod 700 it/],
  ]
  if (process.getuid?.() === 0) {
    cases.push(['that another user owns', async () => {
      const dir = await dataDir()
      await mkdir(dir, { mode: 0o700 })
      await chown(dir, 4242, 4242)
      return dir
    }, /it is owned by uid 4242, not this user \(uid 0\)/])
  }
  for (const [name, make, message] of cases) {
    it(name, async () => {
      const dir = await make()
      const { code, stdout, stderr, ms } = await refused(['--data-dir', dir])
      expect(code).toBe(1)
      expect(stdout).toBe('')
      expect(stderr.trimEnd().split('\n')).toHaveLength(1)
      expect(stderr).toMatch(message)
      // The start of a Node process is in it; on a machine busy with other test files that alone can take a second.
      expect(ms).toBeLessThan(5000)
    })
  }

  it('makes a missing directory, and its missing parents, mode 0700', async () => {
    const dir = join(await dataDir(), 'deeper')
    const server = await start(dir)
    expect((await send(server, 'GET', '/_doppel/clock')).status).toBe(200)
    expect(await stop(server)).toBe(0)
    expect((await stat(dir)).mode & 0o777).toBe(0o700)
    expect((await stat(join(dir, '..'))).mode & 0o777).toBe(0o700)
  })
})

describe('doppel serve --data-dir keeps what a restart needs', () => {
  it('a dropped tenant used again under its name is written anew, so the old one does not come back', async () => {
    const dir = await dataDir()
    // Slow enough that no periodic write falls between the drop and the next write.
    let server = await start(dir, ['--snapshot-interval', '1s'])
    expect((await send(server, 'POST', '/t/a/v1/auth/cloud/role/old', role('ami-1'))).status).toBe(204)
    const file = join(dir, 'tenants', 'a.snapshot.json')
    await until(async () => (await readFile(file, 'utf8').catch(() => '')).includes('ami-1'), 'the tenant write')
    expect((await send(server, 'DELETE', '/_doppel/tenants/a')).status).toBe(204)
    // The same kind of write: the new instance reaches the same change count as the old one had.
    expect((await send(server, 'POST', '/t/a/v1/auth/cloud/role/new', role('ami-2'))).status).toBe(204)
    expect(await stop(server)).toBe(0)

    server = await start(dir)
    expect((await send(server, 'GET', '/t/a/v1/auth/cloud/role/old')).status).toBe(404)
    expect((await send(server, 'GET', '/t/a/v1/auth/cloud/role/new')).status).toBe(200)
    expect(await stop(server)).toBe(0)
  })

  it('a dropped tenant\'s file goes with the drop: gone when DELETE answers, so a kill right after does not bring it back', async () => {
    const dir = await dataDir()
    let server = await start(dir)
    expect((await send(server, 'POST', '/t/a/v1/auth/cloud/role/old', role('ami-1'))).status).toBe(204)
    expect(await stop(server)).toBe(0)
    const file = join(dir, 'tenants', 'a.snapshot.json')
    expect(await readFile(file, 'utf8')).toContain('ami-1')
    // No periodic write comes between the drop and the kill.
    server = await start(dir, ['--snapshot-interval', '1h'])
    expect((await send(server, 'DELETE', '/_doppel/tenants/a')).status).toBe(204)
    await expect(stat(file)).rejects.toThrow(/ENOENT/)
    expect(await stop(server, 'SIGKILL')).toBe(null)
    server = await start(dir)
    expect((await send(server, 'GET', '/t/a/v1/auth/cloud/role/old')).status).toBe(404)
    expect(await stop(server)).toBe(0)
  })

  it('without a random seed, a live IMDSv2 token still works after a restart and pkcs7 keeps its bytes', async () => {
    const dir = await dataDir()
    let server = await start(dir, FAST)
    const instance = (await send(server, 'POST', '/_doppel/cloud/instances', {})).body.instance_id as string
    const file = join(dir, 'root.snapshot.json')
    await until(async () => (await readFile(file, 'utf8').catch(() => '')).includes(instance), 'the instance write')
    const imds = (at: typeof server) => `${at.url}/_doppel/cloud/imds/${instance}/latest`
    const token = await (await fetch(`${imds(server)}/api/token`, { method: 'PUT', headers: { 'X-aws-ec2-metadata-token-ttl-seconds': '21600' } })).text()
    const pkcs7 = async (at: typeof server) => {
      const response = await fetch(`${imds(at)}/dynamic/instance-identity/pkcs7`, { headers: { 'X-aws-ec2-metadata-token': token } })
      return { status: response.status, text: await response.text() }
    }
    const before = await pkcs7(server)
    expect(before.status).toBe(200)
    expect(await stop(server)).toBe(0)

    server = await start(dir)
    expect(await pkcs7(server)).toEqual(before)
    expect(await stop(server)).toBe(0)
  })
})

/** A tmpfs of `size` at a fresh folder (root only), unmounted after the test; undefined where it cannot be mounted. */
function smallDisk(size: string): string | undefined {
  if (process.getuid?.() !== 0) return undefined
  const dir = mkdtempSync(join(tmpdir(), 'doppel-tmpfs-'))
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size},mode=0700`, 'tmpfs', dir], { stdio: 'ignore' })
  } catch {
    rmSync(dir, { recursive: true })
    return undefined
  }
  mounts.push(dir)
  return dir
}
const mounts: string[] = []
afterEach(() => {
  for (const dir of mounts.splice(0)) {
    execFileSync('umount', [dir])
    rmSync(dir, { recursive: true })
  }
})

describe('doppel serve --data-dir on a disk that fills up (a real tmpfs, where it can be mounted)', () => {
  it('ENOSPC is reported once, writes resume when the state fits again, and a restart has the state', async (context) => {
    const disk = smallDisk('128k')
    if (disk === undefined) return context.skip()
    const dir = join(disk, 'state')
    let server = await start(dir, FAST)
    const ami = (i: number) => Array.from({ length: 40 }, (_, k) => `ami-${String(i * 100 + k).padStart(8, '0')}`)
    let i = 0
    while (!server.stderr().includes('ENOSPC')) {
      expect((await send(server, 'POST', `/v1/auth/cloud/role/r${i}`, { auth_type: 'ec2', bound_ami_id: ami(i) })).status).toBe(204)
      i++
      if (i > 1000) throw new Error('the disk never filled')
      await new Promise((resolve) => setTimeout(resolve, 5))
    }
    expect(server.stderr().trimEnd().split('\n')).toEqual([expect.stringMatching(/^doppel: cannot write the snapshot .*root\.snapshot\.json: ENOSPC/)])
    // Back under what the disk holds beside the last snapshot.
    for (let k = 3; k < i; k++) expect((await send(server, 'DELETE', `/v1/auth/cloud/role/r${k}`)).status).toBe(204)
    await until(() => server.stderr().includes('works again'), 'the recovery line')
    expect(await stop(server)).toBe(0)

    server = await start(dir)
    const keys = (await send(server, 'GET', '/v1/auth/cloud/roles?list=true')).body.data.keys
    expect(keys).toEqual(['r0', 'r1', 'r2'])
    expect(await stop(server)).toBe(0)
  })
})
