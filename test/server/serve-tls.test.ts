// `doppel serve --tls` and `--tls-cert`/`--tls-key` as a process, with real clients: curl --cacert, Node's
// fetch trusting the CA through NODE_EXTRA_CA_CERTS, and a conformance run over HTTPS.
import { execFile, execFileSync } from 'node:child_process'
import { once } from 'node:events'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { createCertificateAuthority, issueServerCertificate } from '../../src/faces/server/index.ts'
import { startServe, type ServeProcess } from './serve-process.ts'

const BIN = new URL('../../bin/doppel.js', import.meta.url).pathname
const run = promisify(execFile)
const work = mkdtempSync(join(tmpdir(), 'doppel-serve-tls-'))
afterAll(() => rmSync(work, { recursive: true, force: true }))

let serve: ServeProcess | undefined
afterEach(async () => {
  // SIGTERM, so that the server removes its temporary CA folder as it stops.
  if (serve && serve.child.exitCode === null && serve.child.signalCode === null) await stop(serve)
  serve = undefined
})

/** What `export NAME=…` says on stderr. */
const exported = (stderr: string, name: string) => new RegExp(`^export ${name}=(.*)$`, 'm').exec(stderr)?.[1]

async function stop(process: ServeProcess): Promise<void> {
  process.child.kill('SIGTERM')
  await once(process.child, 'exit')
}

/** curl's status code, or its exit code when it fails (60: the certificate is not trusted). */
async function curl(args: string[]): Promise<{ code: number; out: string }> {
  try {
    const { stdout } = await run('curl', ['-sS', '--max-time', '10', ...args])
    return { code: 0, out: stdout }
  } catch (error) {
    return { code: (error as { code: number }).code, out: '' }
  }
}

/** `doppel serve` expected to fail at start: its exit code and stderr. */
async function failedServe(args: string[]): Promise<{ code: number; stderr: string }> {
  try {
    await run(process.execPath, [BIN, 'serve', '--port', '0', '--quiet', ...args], { timeout: 20_000 })
    return { code: 0, stderr: '' }
  } catch (error) {
    return { code: (error as { code: number }).code, stderr: (error as { stderr: string }).stderr }
  }
}

describe('doppel serve --tls', () => {
  it('serves HTTPS with a new CA in a temporary folder, says where it is, and removes it at stop', async () => {
    serve = await startServe(['--tls'])
    expect(serve.url).toMatch(/^https:\/\//)
    const stderr = serve.stderr()
    const ca = exported(stderr, 'VAULT_CACERT')!
    expect(ca).toMatch(/\/doppel-tls-[^/]+\/ca\.pem$/)
    expect(exported(stderr, 'NODE_EXTRA_CA_CERTS')).toBe(ca)
    expect(exported(stderr, 'REQUESTS_CA_BUNDLE')).toBe(ca)
    expect(exported(stderr, 'VAULT_ADDR')).toBe(serve.url)
    for (const key of ['ca-key.pem', 'key.pem']) expect(statSync(join(dirname(ca), key)).mode & 0o777, key).toBe(0o600)

    expect(await curl(['--cacert', ca, `${serve.url}/_doppel/health`])).toEqual({ code: 0, out: '{"status":"ok"}\n' })
    expect(await curl(['--cacert', ca, `https://localhost:${serve.port}/_doppel/health`])).toMatchObject({ code: 0 })
    const listed = await curl(['--cacert', ca, '-X', 'LIST', '-H', 'X-Service-Token: root', '-w', '%{http_code}', `${serve.url}/v1/auth/cloud/roles`])
    expect(listed).toEqual({ code: 0, out: '{"errors":[]}\n404' })
    expect((await curl([`${serve.url}/_doppel/health`])).code).toBe(60)

    // Node's fetch in a process that trusts the CA through NODE_EXTRA_CA_CERTS, as the hint says.
    const { stdout } = await run(process.execPath, ['-e', `fetch(${JSON.stringify(serve.url + '/_doppel/health')}).then(async (r) => console.log(r.status, await r.text()))`], {
      env: { ...process.env, NODE_EXTRA_CA_CERTS: ca },
    })
    expect(stdout).toBe('200 {"status":"ok"}\n\n')

    await stop(serve)
    expect(existsSync(dirname(ca))).toBe(false)
  })

  it('bound to every interface, the address it gives is loopback (a wildcard address is not in the certificate)', async () => {
    serve = await startServe(['--tls', '--host', '0.0.0.0', '--root-token', 'not-root'])
    expect(exported(serve.stderr(), 'VAULT_ADDR')).toBe(`https://127.0.0.1:${serve.port}`)
    const ca = exported(serve.stderr(), 'VAULT_CACERT')!
    expect(await curl(['--cacert', ca, `https://127.0.0.1:${serve.port}/_doppel/health`])).toMatchObject({ code: 0 })
  })

  it('names --host and --allowed-host in the certificate', async () => {
    serve = await startServe(['--tls', '--host', '127.0.0.2', '--allowed-host', 'doppel.example.test'])
    const ca = exported(serve.stderr(), 'VAULT_CACERT')!
    expect(await curl(['--cacert', ca, `https://127.0.0.2:${serve.port}/_doppel/health`])).toEqual({ code: 0, out: '{"status":"ok"}\n' })
    const answer = await curl(['--cacert', ca, '--resolve', `doppel.example.test:${serve.port}:127.0.0.2`, `https://doppel.example.test:${serve.port}/_doppel/health`])
    expect(answer).toEqual({ code: 0, out: '{"status":"ok"}\n' })
  })

  it('with --data-dir, keeps the CA in its tls/ folder: a restarted server is trusted by the same file', async () => {
    const dataDir = join(work, 'data')
    serve = await startServe(['--tls', '--data-dir', dataDir])
    const ca = exported(serve.stderr(), 'VAULT_CACERT')!
    expect(ca).toBe(join(dataDir, 'tls', 'ca.pem'))
    expect(serve.stderr()).toContain('a new development CA')
    const first = { ca: readFileSync(ca, 'utf8'), cert: readFileSync(join(dataDir, 'tls', 'cert.pem'), 'utf8') }
    await stop(serve)
    expect(existsSync(ca)).toBe(true)

    serve = await startServe(['--tls', '--data-dir', dataDir])
    expect(serve.stderr()).toContain('the kept development CA')
    expect(readFileSync(ca, 'utf8')).toBe(first.ca)
    expect(readFileSync(join(dataDir, 'tls', 'cert.pem'), 'utf8')).not.toBe(first.cert)
    expect(await curl(['--cacert', ca, `${serve.url}/_doppel/health`])).toMatchObject({ code: 0 })
  })

  it('a CA file in --data-dir that is not a certificate is a start-up error naming it, and is left as it was', async () => {
    const dataDir = join(work, 'bad-ca')
    mkdirSync(join(dataDir, 'tls'), { recursive: true })
    writeFileSync(join(dataDir, 'tls', 'ca.pem'), 'not a certificate\n')
    writeFileSync(join(dataDir, 'tls', 'ca-key.pem'), 'not a key\n')
    const failed = await failedServe(['--tls', '--data-dir', dataDir])
    expect(failed.code).toBe(1)
    expect(failed.stderr).toContain(`doppel serve: cannot make the --tls certificates in ${join(dataDir, 'tls')}:`)
    expect(readFileSync(join(dataDir, 'tls', 'ca.pem'), 'utf8')).toBe('not a certificate\n')
  })

  it("a --data-dir whose tls/ is a link is refused: the keys are not written where it points", async () => {
    const dataDir = join(work, 'linked')
    const elsewhere = join(work, 'elsewhere')
    mkdirSync(dataDir, { recursive: true })
    mkdirSync(elsewhere, { recursive: true })
    symlinkSync(elsewhere, join(dataDir, 'tls'))
    const failed = await failedServe(['--tls', '--data-dir', dataDir])
    expect(failed.code).toBe(1)
    expect(failed.stderr).toContain('is a link')
    expect(readdirSync(elsewhere)).toEqual([])
  })

  it('--cloud-port serves the fake cloud over HTTPS too', async () => {
    serve = await startServe(['--tls', '--cloud-port', '0'])
    const cloud = /doppel fake cloud on (https:\/\/\S+)/.exec(serve.stderr())?.[1]
    expect(cloud).toBeDefined()
    const ca = exported(serve.stderr(), 'VAULT_CACERT')!
    const answer = await curl(['--cacert', ca, '-w', '%{http_code}', '-o', '/dev/null', `${cloud}/latest/meta-data/`])
    expect(answer.code).toBe(0)
    expect(answer.out).toMatch(/^\d{3}$/)
  })

  it('a conformance run over HTTPS passes when NODE_EXTRA_CA_CERTS trusts the CA, and cannot reach it otherwise', async () => {
    serve = await startServe(['--tls'])
    const ca = exported(serve.stderr(), 'VAULT_CACERT')!
    const conformance = (env: NodeJS.ProcessEnv) =>
      run(process.execPath, [BIN, 'conformance', '--target', serve!.url], { env, timeout: 120_000 }).then(
        () => 0,
        (error: { code: number }) => error.code,
      )
    expect(await conformance({ ...process.env, NODE_EXTRA_CA_CERTS: ca })).toBe(0)
    const { NODE_EXTRA_CA_CERTS: _, ...without } = process.env
    expect(await conformance(without)).toBe(3)
  }, 180_000)
})

describe('doppel serve --tls-cert --tls-key', () => {
  const ca = createCertificateAuthority()
  const pair = issueServerCertificate(ca, [])
  const files = { ca: join(work, 'own-ca.pem'), cert: join(work, 'own-cert.pem'), key: join(work, 'own-key.pem'), other: join(work, 'other-key.pem') }
  writeFileSync(files.ca, ca.cert)
  writeFileSync(files.cert, pair.cert)
  writeFileSync(files.key, pair.key)
  writeFileSync(files.other, issueServerCertificate(ca, []).key)

  it("serves the user's own pair and makes no CA", async () => {
    serve = await startServe(['--tls-cert', files.cert, '--tls-key', files.key])
    expect(serve.url).toMatch(/^https:\/\//)
    expect(serve.stderr()).not.toContain('export')
    expect(await curl(['--cacert', files.ca, `${serve.url}/_doppel/health`])).toEqual({ code: 0, out: '{"status":"ok"}\n' })
  })

  it('refuses one without the other, both with --tls, a key that does not match, and a file that is not there', async () => {
    expect(await failedServe(['--tls-cert', files.cert])).toEqual({ code: 1, stderr: expect.stringContaining('--tls-cert and --tls-key go together') })
    expect(await failedServe(['--tls', '--tls-cert', files.cert, '--tls-key', files.key])).toEqual({
      code: 1,
      stderr: 'doppel serve: --tls makes a development certificate; give --tls or --tls-cert with --tls-key, not both\nRun "doppel serve --help" for usage.\n',
    })
    const mismatch = await failedServe(['--tls-cert', files.cert, '--tls-key', files.other])
    expect(mismatch.code).toBe(1)
    expect(mismatch.stderr).toContain(`cannot use --tls-cert ${files.cert} with --tls-key ${files.other}`)
    const missing = await failedServe(['--tls-cert', join(work, 'nothing.pem'), '--tls-key', files.key])
    expect(missing.code).toBe(1)
    expect(missing.stderr).toContain('ENOENT')
  })
})

// curl is what the tests above drive; without it they cannot say anything.
execFileSync('curl', ['--version'], { stdio: 'ignore' })
