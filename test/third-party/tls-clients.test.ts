// Clients in other languages against `doppel serve --tls`, trusting the CA as its hints say: Python's
// requests and hvac (Debian's python3-hvac), and a Go client on the standard library's crypto/tls, as Vault's
// Go client trusts VAULT_CACERT (Debian's golang-go; no module downloads). .ci/run installs both.
import { execFile } from 'node:child_process'
import { once } from 'node:events'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PYTHON, pythonModulesPresent } from './python-modules.ts'
import { startServe, type ServeProcess } from '../server/serve-process.ts'
import { tempDir } from '../support/temp-dir.ts'

const APP = new URL('./python/tls_client.py', import.meta.url).pathname
const present = pythonModulesPresent(['hvac', 'requests'])
if (!present) console.warn(`python TLS client test skipped: ${PYTHON} lacks hvac/requests (apt-get install python3-hvac)`)
const GO_APP = new URL('./go/tls_client.go', import.meta.url).pathname

describe.skipIf(!present)('python requests and hvac over doppel serve --tls --profile vault', () => {
  let serve: ServeProcess
  beforeAll(async () => {
    serve = await startServe(['--tls', '--profile', 'vault'])
  })
  afterAll(async () => {
    // SIGTERM, so that the server removes its temporary CA folder as it stops.
    serve.child.kill('SIGTERM')
    await once(serve.child, 'exit')
  })

  it('trust the CA from VAULT_CACERT / verify=, write and LIST roles, and refuse the server without it', async () => {
    const exported = (name: string) => new RegExp(`^export ${name}=(.*)$`, 'm').exec(serve.stderr())![1]!
    const { stdout } = await promisify(execFile)(PYTHON, [APP], {
      env: { PATH: process.env.PATH ?? '', HOME: '/nonexistent', VAULT_ADDR: exported('VAULT_ADDR'), VAULT_CACERT: exported('VAULT_CACERT') },
      timeout: 60_000,
    })
    expect(JSON.parse(stdout)).toEqual({ health: { status: 'ok' }, roles: ['tls-role'], untrusted: 'SSLError' })
  })
})

describe('a Go client (net/http, crypto/tls) over doppel serve --tls --profile vault', () => {
  let serve: ServeProcess
  beforeAll(async () => {
    serve = await startServe(['--tls', '--profile', 'vault'])
  })
  afterAll(async () => {
    serve.child.kill('SIGTERM')
    await once(serve.child, 'exit')
  })

  it('trusts the CA from VAULT_CACERT, writes and LISTs roles over TLS, and is refused without it', { timeout: 180_000 }, async () => {
    const exported = (name: string) => new RegExp(`^export ${name}=(.*)$`, 'm').exec(serve.stderr())![1]!
    const work = tempDir('go')
    const { stdout } = await promisify(execFile)('go', ['run', GO_APP], {
      env: {
        PATH: process.env.PATH ?? '',
        HOME: work,
        GOCACHE: `${work}/cache`,
        GOPATH: `${work}/path`,
        GOPROXY: 'off',
        GO111MODULE: 'off',
        VAULT_ADDR: exported('VAULT_ADDR'),
        VAULT_CACERT: exported('VAULT_CACERT'),
      },
      timeout: 170_000,
    })
    expect(JSON.parse(stdout)).toEqual({ write: 204, list: 200, roles: ['go-role'], tls: true, untrusted: 'UnknownAuthorityError' })
  })
})
