// Clients in other languages against `doppel serve --tls`, trusting the CA as its hints say. Python's
// requests and hvac (Debian's python3-hvac, which .ci/run installs); Go's Vault client is not tested: Go is
// not on the machines this suite runs on, and .ci/run does not install it.
import { execFile } from 'node:child_process'
import { once } from 'node:events'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PYTHON, pythonModulesPresent } from './python-modules.ts'
import { startServe, type ServeProcess } from '../server/serve-process.ts'

const APP = new URL('./python/tls_client.py', import.meta.url).pathname
const present = pythonModulesPresent(['hvac', 'requests'])
if (!present) console.warn(`python TLS client test skipped: ${PYTHON} lacks hvac/requests (apt-get install python3-hvac)`)
console.warn('Go TLS client test skipped: Go is not installed here, and .ci/run does not install it')

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
