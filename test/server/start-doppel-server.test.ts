// The server as a library, as a harness or a container entry point uses it: startDoppelServer from the
// package's entry, with the options `doppel serve` maps its flags onto, and an orderly close.
import { existsSync, readFileSync, readdirSync } from 'node:fs'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { startDoppelServer, StartupError, type DoppelOptions, type DoppelServer, type DoppelServerOptions } from '../../src/index.ts'
import { doppelWarningsDuring } from '../support/doppel-warnings.ts'
import { tempDir } from '../support/temp-dir.ts'

const ROOT = { 'X-Service-Token': 'root' }
const servers: DoppelServer[] = []
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()))
})

async function start(options: Parameters<typeof startDoppelServer>[0]): Promise<DoppelServer> {
  const server = await startDoppelServer(options)
  servers.push(server)
  return server
}

describe('startDoppelServer', () => {
  it('serves fixtures, a tenant, the cloud listener and a pid file; close writes the data dir and removes the pid file', async () => {
    const dir = tempDir('start-server')
    const dataDir = join(dir, 'data')
    const pidFile = join(dir, 'doppel.pid')
    const server = await startDoppelServer({ port: 0, cloudPort: 0, seed: 1, fixtures: ['scenarios/fixtures/example.yaml'], dataDir, pidFile })
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    expect(readFileSync(pidFile, 'utf8')).toBe(`${process.pid}\n`)
    expect((await fetch(`${server.url}/v1/auth/cloud/role/web`, { headers: ROOT })).status).toBe(200)
    expect((await fetch(`${server.url}/t/job-1/_doppel/health`)).status).toBe(200)
    expect(server.tenants.list().map((tenant) => tenant.id)).toEqual(['job-1'])
    const identity = await fetch(`${server.cloud!.url}/latest/dynamic/instance-identity/document`)
    expect(identity.status).toBe(200)
    const write = await fetch(`${server.url}/v1/auth/cloud/role/kept`, { method: 'POST', headers: ROOT, body: JSON.stringify({ auth_type: 'ec2', bound_ami_id: 'ami-0abc1234' }) })
    expect(write.status).toBe(204)

    await server.close()
    expect(existsSync(pidFile)).toBe(false)
    expect(readdirSync(dataDir)).toContain('root.snapshot.json')
    await expect(fetch(`${server.url}/_doppel/health`)).rejects.toThrow()
    await expect(fetch(`${server.cloud!.url}/latest/meta-data/`)).rejects.toThrow()

    // A second start from the same folder answers with what the first one held.
    const again = await start({ port: 0, dataDir })
    expect((await fetch(`${again.url}/v1/auth/cloud/role/kept`, { headers: ROOT })).status).toBe(200)
  })

  it('serves HTTPS with a development CA it names, and removes its temporary folder at close', async () => {
    const server = await startDoppelServer({ port: 0, tls: 'development' })
    expect(server.url).toMatch(/^https:\/\//)
    expect(server.ca?.isNew).toBe(true)
    expect(readFileSync(server.ca!.file, 'utf8')).toMatch(/^-----BEGIN CERTIFICATE-----/)
    await server.close()
    expect(existsSync(server.ca!.file)).toBe(false)
  })

  it('a start that fails closes what it opened: a port in use leaves no pid file and no listener', async () => {
    const taken = createServer()
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve))
    const port = (taken.address() as { port: number }).port
    const pidFile = join(tempDir('start-server'), 'doppel.pid')
    try {
      const failure = await startDoppelServer({ port: 0, cloudPort: port, pidFile }).catch((error: unknown) => error)
      expect(failure).toBeInstanceOf(StartupError)
      expect((failure as StartupError).message).toBe(`doppel serve: port ${port} is in use; --cloud-port 0 picks a free one`)
      expect(existsSync(pidFile)).toBe(false)
    } finally {
      taken.close()
    }
  })

  it('fixtures that do not load are one StartupError', async () => {
    const failure = await startDoppelServer({ port: 0, fixtures: [join(tempDir('start-server'), 'missing.yaml')] }).catch((error: unknown) => error)
    expect(failure).toBeInstanceOf(StartupError)
    expect((failure as Error).message).toMatch(/^doppel serve: cannot load --fixtures: .*missing\.yaml: cannot read the file: ENOENT/)
  })

  it('a signal abandons a start under way with its reason, and nothing is left listening', async () => {
    const controller = new AbortController()
    const reason = new Error('stop now')
    const starting = startDoppelServer({ port: 0, fixtures: ['scenarios/fixtures/example.yaml'], signal: controller.signal })
    controller.abort(reason)
    await expect(starting).rejects.toBe(reason)
  })

  it('an onWarning that throws stops no start: the warning beyond loopback is given, the server runs, one process warning says why', async () => {
    const lines: string[] = []
    const warnings = await doppelWarningsDuring(async () => {
      const server = await start({
        port: 0,
        host: '0.0.0.0',
        onWarning: (line) => {
          lines.push(line)
          throw new Error('stderr is closed')
        },
      })
      expect((await fetch(`http://127.0.0.1:${server.main.port}/v1/auth/cloud/role/absent`, { headers: ROOT })).status).toBe(404)
    })
    expect(lines).toEqual([expect.stringContaining('listening beyond loopback (0.0.0.0) with the default root token')])
    expect(warnings).toEqual(['doppel: the onWarning callback threw (stderr is closed); doppel goes on, and later throws are not reported'])
  })

  it('close is one orderly stop however often it is called', async () => {
    const server = await startDoppelServer({ port: 0 })
    await Promise.all([server.close(), server.close()])
    await server.close()
  })
})

// Every option the server adds to createDoppel's, once: the compiler fails on one missing here or one
// that is not an option, and the test below on one missing from docs/server.md's table.
const SERVER_OPTIONS = {
  port: true,
  host: true,
  allowedHosts: true,
  controlTokens: true,
  cloudPort: true,
  exposeImds: true,
  tls: true,
  dataDir: true,
  snapshotInterval: true,
  tenants: true,
  pidFile: true,
  onRequest: true,
  onWarning: true,
  signal: true,
} as const satisfies Record<keyof Omit<DoppelServerOptions, keyof DoppelOptions>, true>

/** The options docs/server.md's library table names: the code spans of its first column. */
function documentedOptions(markdown: string): string[] {
  const lines = markdown.split('\n')
  let row = lines.indexOf('| option | flag | default | meaning |') + 2
  const names: string[] = []
  for (; lines[row]?.startsWith('|'); row++) for (const [, name] of (lines[row]!.split('|')[1] ?? '').matchAll(/`(\w+)`/g)) names.push(name!)
  return names
}

describe("startDoppelServer's options in docs/server.md", () => {
  const docs = readFileSync(new URL('../../docs/server.md', import.meta.url), 'utf8')
  it('lists every option, and no other', () => {
    expect(documentedOptions(docs).sort()).toEqual(Object.keys(SERVER_OPTIONS).sort())
  })

  it('an option left out of the table is seen', () => {
    expect(documentedOptions(docs.replace(/^\| `pidFile` .*\n/m, ''))).not.toContain('pidFile')
  })
})
