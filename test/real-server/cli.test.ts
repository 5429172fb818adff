// The server's own CLI (OpenBao's `bao`, the Vault CLI's fork, which scripts/real-server.sh installs: BAO_CLI)
// against the real server and against `doppel serve --profile vault`, command by command, as a user drives a
// mount from a shell: enable (with a first tuning too), tune (through sys/mounts/auth/<path>/tune, as the CLI
// tunes), configure, role CRUD, a role tag, a tidy, refusals, a missing path, the token lookup, capabilities and tidy,
// token creation (with each of its flags, a custom id, a batch token) with a lookup, renewal and revocation
// of the created, a token role and a token against it, disable. The outputs are the same but for the values
// each server draws at random, the times, and the name in the token store's tidy warning.
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startServe, stopServe, type ServeProcess } from '../server/serve-process.ts'
import { realServer } from './real-server-env.ts'

const server = realServer()
const MOUNT = 'cli-aws'
const COMMANDS: string[][] = [
  ['auth', 'enable', `-path=${MOUNT}`, 'aws'],
  ['auth', 'tune', '-default-lease-ttl=30m', '-max-lease-ttl=2h', `${MOUNT}/`],
  ['read', '-format=json', `sys/auth/${MOUNT}/tune`],
  ['read', '-format=json', `sys/mounts/auth/${MOUNT}/tune`],
  ['write', `auth/${MOUNT}/config/client`, 'access_key=AKIAEXAMPLE', 'secret_key=s', 'endpoint=http://127.0.0.1:1', 'max_retries=0'],
  ['read', `auth/${MOUNT}/config/client`],
  ['write', `auth/${MOUNT}/role/r1`, 'auth_type=ec2', 'bound_ami_id=ami-0bbbb000000000001', 'token_policies=a,b', 'role_tag=VaultRole'],
  ['read', '-format=json', `auth/${MOUNT}/role/r1`],
  ['read', '-field=token_policies', `auth/${MOUNT}/role/r1`],
  ['list', '-format=json', `auth/${MOUNT}/roles`],
  ['list', `auth/${MOUNT}/role`],
  ['write', '-format=json', `auth/${MOUNT}/role/r1/tag`, 'policies=a'],
  ['write', '-f', `auth/${MOUNT}/tidy/identity-accesslist`],
  ['write', `auth/${MOUNT}/role/r2`, 'auth_type=bogus'],
  ['write', `auth/${MOUNT}/role/r3`, 'bound_ami_id=x'],
  ['read', `auth/${MOUNT}/role/missing`],
  ['list', `auth/${MOUNT}/identity-accesslist`],
  ['delete', `auth/${MOUNT}/role/r1`],
  ['token', 'lookup', '-format=json'],
  ['write', '-f', 'auth/token/tidy'],
  ['token', 'create', '-policy=a', '-ttl=1h', '-format=json'],
  ['token', 'create', '-orphan', '-policy=b', '-display-name=ci', '-metadata=k=v', '-use-limit=2', '-explicit-max-ttl=2h', '-period=30m'],
  ['token', 'create', '-role=nope'],
  ['token', 'create', '-type=batch', '-policy=a', '-format=json'],
  ['write', 'auth/token/create', 'policies=a'],
  ['token', 'create', '-id=custom-x', '-policy=a', '-field=token'],
  ['token', 'lookup', 'custom-x'],
  ['token', 'capabilities', 'custom-x', 'cubbyhole/x'],
  ['token', 'capabilities', 'custom-x', 'auth/token/lookup-self,sys/tools/random'],
  ['token', 'capabilities', '-format=json', 'sys/auth'],
  ['token', 'renew', '-increment=10m', 'custom-x'],
  ['token', 'revoke', 'custom-x'],
  ['token', 'create', '-policy=root', '-no-default-policy', '-ttl=10m', '-renewable=false'],
  ['write', 'auth/token/roles/cli-role', 'allowed_policies=a,b', 'orphan=true', 'token_period=30m', 'path_suffix=v1x'],
  ['read', '-format=json', 'auth/token/roles/cli-role'],
  ['list', 'auth/token/roles'],
  ['token', 'create', '-role=cli-role', '-policy=a', '-format=json'],
  ['token', 'create', '-role=cli-role', '-policy=c'],
  ['delete', 'auth/token/roles/cli-role'],
  ['auth', 'enable', `-path=${MOUNT}-set`, '-description=mine', '-default-lease-ttl=1h', '-max-lease-ttl=2h', '-token-type=batch', '-listing-visibility=unauth', '-passthrough-request-headers=X-A', '-allowed-response-headers=X-B', '-audit-non-hmac-request-keys=k1', '-audit-non-hmac-response-keys=k2', 'aws'],
  ['read', '-format=json', `sys/auth/${MOUNT}-set/tune`],
  ['auth', 'tune', '-user-lockout-threshold=5', `${MOUNT}-set/`],
  ['auth', 'enable', `-path=${MOUNT}-version`, '-plugin-version=v1.0.0', 'aws'],
  ['auth', 'disable', `${MOUNT}-set`],
  ['auth', 'disable', MOUNT],
  ['read', `auth/${MOUNT}/role/r1`],
]

/** Each command's exit code and output, the values a server draws at random and the times taken out. */
async function drive(addr: string, token: string): Promise<string[]> {
  const outputs: string[] = []
  for (const args of COMMANDS) {
    const { code, output } = await promisify(execFile)(process.env.BAO_CLI!, args, { env: { PATH: process.env.PATH ?? '', BAO_ADDR: addr, BAO_TOKEN: token }, timeout: 30_000 }).then(
      ({ stdout, stderr }) => ({ code: 0, output: stdout + stderr }),
      (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, output: error.stdout + error.stderr }),
    )
    const text = output
      .replaceAll(addr, '<addr>')
      .replace(/"(request_id|lease_id|accessor|tag_value|role_id|client_token)": "[^"]*"/g, '"$1": "<drawn>"')
      .replace(/^(token|token_accessor|accessor)( +)\S+$/gm, '$1$2<drawn>')
      .replace(/"(creation_time)": \d+/g, '"$1": "<time>"')
      .replace(/^(creation_time)( +)\d+$/gm, '$1$2<time>')
      // the time a token has left, counted down while the commands run
      .replace(/^(ttl)( +)(?!0s$)\S+$/gm, '$1$2<left>')
      .replace(/\d{4}-\d\d-\d\dT[\d:.]+Z/g, '<time>')
      // OpenBao's own token store names itself in its tidy warning where Vault's (doppel's model) says Vault
      .replace("printed to OpenBao's server logs", "printed to Vault's server logs")
    outputs.push(`${args.join(' ')}\nexit ${code}\n${text}`)
  }
  return outputs
}

describe.skipIf(!server)("the server's CLI against the real server and doppel serve", () => {
  let serve: ServeProcess
  beforeAll(async () => {
    serve = await startServe(['--profile', 'vault'])
  })
  afterAll(() => stopServe(serve))

  it('prints the same for every command', { timeout: 120_000 }, async () => {
    const real = await drive(server!.addr, server!.token)
    expect(real[1]).toContain('Success! Tuned the auth method')
    expect(real).toContain('token capabilities custom-x cubbyhole/x\nexit 0\ncreate, delete, list, read, update\n')
    expect(await drive(serve.url, 'root')).toEqual(real)
  })
})
