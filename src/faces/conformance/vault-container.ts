import { createServer } from 'node:net'
import type { CliIo } from '../../core/cli-io.ts'
import { parseLabelExpression, EXIT } from '../scenario/index.ts'
import { runConformance, type ConformanceOptions } from './run-conformance.ts'
import { apiPath } from '../../services/cloud-auth/urls.ts'

const ROOT_TOKEN = 'doppel-root'

/** The default Vault image, unless `$DOPPEL_VAULT_IMAGE` names another. */
export const DEFAULT_VAULT_IMAGE = 'hashicorp/vault:1.17'

/** What the conformance suite in a Vault container takes: the image, and the suite's own options. */
export interface VaultContainerOptions extends Omit<ConformanceOptions, 'target' | 'fakeCloud' | 'registryUrl' | 'registryToken'> {
  image: string
}

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

function skipped(io: CliIo, reason: string): number {
  io.stdout(`conformance against Vault skipped: ${reason}\n`)
  io.stdout('0 passed, 0 failed, 1 skipped\n')
  return EXIT.passed
}

/**
 * The cloud-auth conformance scenarios against `hashicorp/vault` in a container (dev mode, through
 * testcontainers), the fake cloud served to it from this process. Without testcontainers or a container
 * runtime the suite is reported skipped, exit code 0. Resolves with the conformance exit code.
 */
export async function runConformanceInVaultContainer(options: VaultContainerOptions, io: CliIo): Promise<number> {
  const { image, ...suite } = options
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
    .withWaitStrategy(Wait.forHttp(apiPath('sys/health'), 8200).forStatusCode(200))
    .start()
  try {
    const url = `http://${vault.getHost()}:${vault.getMappedPort(8200)}`
    return await runConformance(
      {
        ...suite,
        filter: suite.filter ?? parseLabelExpression('cloud-auth and not emulator-defined'),
        target: { kind: 'http', url, name: url, profile: 'vault', token: ROOT_TOKEN },
        fakeCloud: { listen: `0.0.0.0:${port}`, url: `http://host.testcontainers.internal:${port}` },
      },
      io,
    )
  } finally {
    await vault.stop()
  }
}
