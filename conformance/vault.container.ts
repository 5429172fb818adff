// npm run conformance:vault — the conformance suite against a real Vault in a container.
// Starts hashicorp/vault in dev mode with a fixed root token, serves the fake cloud to it from this
// process, enables the method on a fresh mount and runs the cloud-auth scenarios there. Without a
// container runtime it reports the suite skipped with the reason and exits 0.
import { createServer } from 'node:net'
import { conformanceCommand } from '../src/scenario/index.ts'

const VAULT_IMAGE = process.env.DOPPEL_VAULT_IMAGE ?? 'hashicorp/vault:1.17'
const ROOT_TOKEN = 'doppel-root'

const io = { stdout: (s: string) => process.stdout.write(s), stderr: (s: string) => process.stderr.write(s), cwd: process.cwd() }

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '0.0.0.0', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
}

const { GenericContainer, TestContainers, Wait, getContainerRuntimeClient } = await import('testcontainers')
try {
  await getContainerRuntimeClient()
} catch (error) {
  io.stdout(`conformance against Vault skipped: no container runtime available (${(error as Error).message.split('\n')[0]})\n`)
  io.stdout('0 passed, 0 failed, 1 skipped\n')
  process.exit(0)
}

const port = await freePort()
await TestContainers.exposeHostPorts(port)
const vault = await new GenericContainer(VAULT_IMAGE)
  .withEnvironment({ VAULT_DEV_ROOT_TOKEN_ID: ROOT_TOKEN, VAULT_DEV_LISTEN_ADDRESS: '0.0.0.0:8200' })
  .withAddedCapabilities('IPC_LOCK')
  .withExposedPorts(8200)
  .withWaitStrategy(Wait.forHttp('/v1/sys/health', 8200).forStatusCode(200))
  .start()
let code = 1
try {
  code = await conformanceCommand(
    [
      '--target', `http://${vault.getHost()}:${vault.getMappedPort(8200)}`,
      '--profile', 'vault',
      '--token', ROOT_TOKEN,
      '--fake-cloud-listen', `0.0.0.0:${port}`,
      '--fake-cloud-url', `http://host.testcontainers.internal:${port}`,
      '--label', 'cloud-auth and not emulator-defined',
      ...process.argv.slice(2),
    ],
    io,
  )
} finally {
  await vault.stop()
}
process.exit(code)
