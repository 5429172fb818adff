import { spawn, execFile, type ChildProcess } from 'node:child_process'
import { connect } from 'node:net'
import { once } from 'node:events'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const BIN = new URL('../../bin/doppel.js', import.meta.url).pathname

function rawExchange(port: number, payload: string, expectResponses: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1')
    let data = ''
    socket.on('data', (chunk) => {
      data += chunk.toString('latin1')
      if ((data.match(/HTTP\/1\.1 \d{3}/g) ?? []).length >= expectResponses && /\r\n\r\n[\s\S]*\n$/.test(data)) {
        socket.end()
        resolve(data)
      }
    })
    socket.on('error', reject)
    socket.write(payload)
  })
}

describe('doppel serve (a real process)', () => {
  let child: ChildProcess
  let url: string
  let port: number
  let stderr = ''

  beforeAll(async () => {
    child = spawn(process.execPath, [BIN, 'serve', '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] })
    child.stderr!.on('data', (chunk) => (stderr += chunk))
    const [line] = (await once(child.stdout!, 'data')) as [Buffer]
    const match = /^doppel listening on (http:\/\/127\.0\.0\.1:(\d+))\n$/.exec(line.toString())
    expect(match, line.toString()).not.toBeNull()
    url = match![1]!
    port = Number(match![2])
  })

  afterAll(async () => {
    if (child.exitCode === null) {
      child.kill('SIGTERM')
      await once(child, 'exit')
    }
  })

  it('answers the health check', async () => {
    const res = await fetch(`${url}/_doppel/health`)
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ status: 'ok' })
  })

  it('accepts the LIST verb on a raw socket, keep-alive included', async () => {
    const text = await rawExchange(
      port,
      'LIST /v1/auth/cloud/roles HTTP/1.1\r\nHost: localhost\r\nX-Service-Token: root\r\n\r\n' +
        'GET /_doppel/health HTTP/1.1\r\nHost: localhost\r\n\r\n' +
        'LIST /v1/auth/cloud/config/certificates HTTP/1.1\r\nHost: localhost\r\n\r\n',
      3,
    )
    const statuses = [...text.matchAll(/HTTP\/1\.1 (\d{3})/g)].map((m) => Number(m[1]))
    expect(statuses).toHaveLength(3)
    expect(statuses[1]).toBe(200)
    expect(statuses).not.toContain(400)
    expect(statuses).not.toContain(405)
  })

  it('accepts LIST from curl', async () => {
    const { stdout } = await promisify(execFile)('curl', ['-s', '-o', '/dev/null', '-w', '%{http_code}', '-X', 'LIST', `${url}/v1/auth/cloud/roles`])
    expect(['403', '404']).toContain(stdout)
  })

  it('logs one line per request to stderr', async () => {
    await fetch(`${url}/_doppel/health`)
    await new Promise((r) => setTimeout(r, 50))
    expect(stderr).toMatch(/^GET \/_doppel\/health 200 \d+\.\dms$/m)
  })

  it('logs a presigned request with its signature, session token and archivist capability redacted', async () => {
    const signature = 'ab12'.repeat(16)
    const token = 'FQoGZXIvYXdzEXAMPLEsessiontoken'
    await fetch(`${url}/_doppel/cloud/sts?Action=GetCallerIdentity&X-Amz-Credential=AKIAEXAMPLE%2F20260301&X-Amz-Security-Token=${token}&X-Amz-Signature=${signature}`)
    await fetch(`${url}/_archivist/capability-object-value`)
    await new Promise((r) => setTimeout(r, 50))
    for (const secret of [signature, token, 'capability-object-value']) expect(stderr).not.toContain(secret)
    expect(stderr).toMatch(/^GET \/_doppel\/cloud\/sts\?Action=GetCallerIdentity&X-Amz-Credential=AKIAEXAMPLE%2F20260301&X-Amz-Security-Token=%3Credacted%3E&X-Amz-Signature=%3Credacted%3E \d{3} /m)
  })

  it('stops cleanly on SIGTERM', async () => {
    child.kill('SIGTERM')
    const [code] = await once(child, 'exit')
    expect(code).toBe(0)
  })
})

describe('doppel CLI usage', () => {
  const run = (args: string[]) =>
    new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      execFile(process.execPath, [BIN, ...args], (error, stdout, stderr) => {
        resolve({ code: error ? (error as { code?: number }).code ?? 1 : 0, stdout, stderr })
      })
    })

  it('prints help for serve', async () => {
    const { code, stdout } = await run(['serve', '--help'])
    expect(code).toBe(0)
    expect(stdout).toContain('Usage: doppel serve')
  })

  it('refuses an unknown flag with exit 1', async () => {
    const { code, stderr } = await run(['serve', '--bogus'])
    expect(code).toBe(1)
    expect(stderr).toContain('doppel serve: unknown option --bogus\n')
  })

  it('refuses an unknown command with exit 1', async () => {
    const { code, stderr } = await run(['frobnicate'])
    expect(code).toBe(1)
    expect(stderr).toContain('unknown command "frobnicate"')
  })
})
