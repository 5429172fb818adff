// On a shared machine every local user reads a command line in `ps`: serve's root and control tokens can
// also come from a file (--root-token-file, --control-token-file: one token a line) or the environment
// (DOPPEL_ROOT_TOKEN, DOPPEL_CONTROL_TOKEN; VAULT_DEV_ROOT_TOKEN_ID with --profile vault, as Vault's dev
// server reads it). Flags and files add up; the environment counts when they give none.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { serve } from '../../src/cli/serve-command.ts'
import type { DoppelServer } from '../../src/index.ts'
import { tempDir } from '../support/temp-dir.ts'
import { doppel, fakeIo } from './helpers.ts'

const servers: DoppelServer[] = []
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()))
})

async function start(argv: string[], env: NodeJS.ProcessEnv = {}): Promise<DoppelServer> {
  const server = (await serve(['--port', '0', '--quiet', ...argv], fakeIo().io, { env }))!
  servers.push(server)
  return server
}

/** The status of a role list with `token` in the profile's header. */
async function listWith(server: DoppelServer, token: string, header = 'X-Service-Token'): Promise<number> {
  const mount = header === 'X-Vault-Token' ? 'aws' : 'cloud'
  return (await fetch(`${server.url}/v1/auth/${mount}/roles?list=true`, { headers: { [header]: token } })).status
}

function tokenFile(text: string): string {
  const file = join(tempDir('serve-tokens'), 'token')
  writeFileSync(file, text, { mode: 0o600 })
  return file
}

describe('serve: tokens from files and the environment', () => {
  it('--root-token-file: each line a management token, in place of the default "root"', async () => {
    const server = await start(['--root-token-file', tokenFile('s3cret-one\n\ns3cret-two\n')])
    expect(await listWith(server, 's3cret-one')).toBe(404)
    expect(await listWith(server, 's3cret-two')).toBe(404)
    expect(await listWith(server, 'root')).toBe(403)
  })

  it('--root-token and --root-token-file add up', async () => {
    const server = await start(['--root-token', 'flag-token', '--root-token-file', tokenFile('file-token')])
    expect(await listWith(server, 'flag-token')).toBe(404)
    expect(await listWith(server, 'file-token')).toBe(404)
  })

  it('DOPPEL_ROOT_TOKEN when no flag gives one; a flag wins over it', async () => {
    const fromEnv = await start([], { DOPPEL_ROOT_TOKEN: 'env-token' })
    expect(await listWith(fromEnv, 'env-token')).toBe(404)
    expect(await listWith(fromEnv, 'root')).toBe(403)
    const flagged = await start(['--root-token', 'flag-token'], { DOPPEL_ROOT_TOKEN: 'env-token' })
    expect(await listWith(flagged, 'env-token')).toBe(403)
  })

  it('VAULT_DEV_ROOT_TOKEN_ID with --profile vault, as Vault reads it; not on the service profile', async () => {
    const vault = await start(['--profile', 'vault'], { VAULT_DEV_ROOT_TOKEN_ID: 'dev-token' })
    expect(await listWith(vault, 'dev-token', 'X-Vault-Token')).toBe(404)
    expect(await listWith(vault, 'root', 'X-Vault-Token')).toBe(403)
    const service = await start([], { VAULT_DEV_ROOT_TOKEN_ID: 'dev-token' })
    expect(await listWith(service, 'dev-token')).toBe(403)
    expect(await listWith(service, 'root')).toBe(404)
  })

  it('--control-token-file and DOPPEL_CONTROL_TOKEN open the control API beyond loopback', async () => {
    for (const [argv, env] of [
      [['--control-token-file', tokenFile('ctl-token\n')], {}],
      [[], { DOPPEL_CONTROL_TOKEN: 'ctl-token' }],
    ] as const) {
      const server = await start(['--host', '0.0.0.0', '--root-token', 'other', ...argv], env)
      const url = `http://127.0.0.1:${server.main.port}/_doppel/clock`
      // The bind is beyond loopback, whatever address the client comes from.
      expect((await fetch(url)).status).toBe(401)
      expect((await fetch(url, { headers: { Authorization: 'Bearer ctl-token' } })).status).toBe(200)
    }
  })

  it('a token file that holds no token, or cannot be read, is a usage error', async () => {
    const empty = tokenFile('\n  \n')
    expect(await doppel('serve', '--port', '0', '--root-token-file', empty)).toEqual({
      code: 1,
      stdout: '',
      stderr: `doppel serve: --root-token-file ${empty} holds no token\nRun "doppel serve --help" for usage.\n`,
    })
    const missing = join(tempDir('serve-tokens'), 'missing')
    const { code, stderr } = await doppel('serve', '--port', '0', '--control-token-file', missing)
    expect(code).toBe(1)
    expect(stderr).toMatch(new RegExp(`^doppel serve: cannot read --control-token-file ${missing}: ENOENT`))
  })
})
