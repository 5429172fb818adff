import { createServer } from 'node:net'
import { conformanceCommand, EXIT, type CommandIo } from '../../cli/run-command.ts'

export const VAULT_CONTAINER_USAGE = `Usage: doppel conformance-vault [--image <image>] [conformance options]

Runs the cloud-auth conformance scenarios against a real Vault started in a container (dev mode, through
testcontainers, which must be installed: npm i -D testcontainers). The fake cloud is served to it from this
process; the method is enabled on a fresh mount. Without a container runtime the suite is reported skipped
with the reason, and the exit code is 0.

Options:
  --image <image>   Vault image (default hashicorp/vault:1.17, or $DOPPEL_VAULT_IMAGE)
  Any other option is passed to "doppel conformance" (for example --label, --reporter).`

const ROOT_TOKEN = 'doppel-root'

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

function skipped(io: CommandIo, reason: string): number {
  io.stdout(`conformance against Vault skipped: ${reason}\n`)
  io.stdout('0 passed, 0 failed, 1 skipped\n')
  return EXIT.passed
}

/**
 * `doppel conformance-vault`: the conformance suite against `hashicorp/vault` in a container. Resolves
 * with the conformance command's exit code.
 */
export async function vaultContainerCommand(argv: string[], io: CommandIo, env = process.env): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    io.stdout(`${VAULT_CONTAINER_USAGE}\n`)
    return EXIT.passed
  }
  const imageAt = argv.findIndex((arg) => arg === '--image' || arg.startsWith('--image='))
  let image = env.DOPPEL_VAULT_IMAGE ?? 'hashicorp/vault:1.17'
  const rest = [...argv]
  if (imageAt >= 0) {
    const arg = argv[imageAt]!
    const value = arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : argv[imageAt + 1]
    if (!value) {
      io.stderr('doppel conformance-vault: --image needs a value\n')
      return EXIT.usage
    }
    image = value
    rest.splice(imageAt, arg.includes('=') ? 1 : 2)
  }
  let containers: typeof import('testcontainers')
  try {
    containers = await import('testcontainers')
  } catch {
    return skipped(io, 'the testcontainers package is not installed (npm i -D testcontainers)')
  }
  const { GenericContainer, TestContainers, Wait, getContainerRuntimeClient } = containers
  try {
    await getContainerRuntimeClient()
  } catch (error) {
    return skipped(io, `no container runtime available (${(error as Error).message.split('\n')[0]})`)
  }

  const port = await freePort()
  await TestContainers.exposeHostPorts(port)
  const vault = await new GenericContainer(image)
    .withEnvironment({ VAULT_DEV_ROOT_TOKEN_ID: ROOT_TOKEN, VAULT_DEV_LISTEN_ADDRESS: '0.0.0.0:8200' })
    .withAddedCapabilities('IPC_LOCK')
    .withExposedPorts(8200)
    .withWaitStrategy(Wait.forHttp('/v1/sys/health', 8200).forStatusCode(200))
    .start()
  try {
    return await conformanceCommand(
      [
        '--target', `http://${vault.getHost()}:${vault.getMappedPort(8200)}`,
        '--profile', 'vault',
        '--token', ROOT_TOKEN,
        '--fake-cloud-listen', `0.0.0.0:${port}`,
        '--fake-cloud-url', `http://host.testcontainers.internal:${port}`,
        '--label', 'cloud-auth and not emulator-defined',
        ...rest,
      ],
      io,
    )
  } finally {
    await vault.stop()
  }
}
