import type { CliIo } from '../../core/cli-io.ts'
import { packageFile } from '../../core/package-files.ts'
import { findScenarioFiles, EXIT, runSuite, type SuiteOptions } from '../scenario/index.ts'
import { startVaultBridge, type VaultBridge } from './vault-bridge.ts'

/** The bundled conformance scenarios, and the `targets.yaml` beside them when there is one. */
export const CONFORMANCE_DIR = packageFile('conformance/')

export interface ConformanceOptions extends Omit<SuiteOptions, 'files'> {
  /** Serve the fake cloud for a real server (an http target) from here, on a fresh mount of the method. */
  fakeCloud?: { listen: string; url?: string }
  registryUrl?: string
  registryToken?: string
}

/**
 * The conformance suite against its target; against a real server, with the fake cloud served to it and
 * the registry at its own URL. Resolves with the exit code (see EXIT).
 */
export async function runConformance(options: ConformanceOptions, io: CliIo): Promise<number> {
  const { fakeCloud, registryUrl, registryToken, ...suite } = options
  let target = suite.target
  let bridge: VaultBridge | undefined
  if (target.kind === 'http') {
    if (fakeCloud) {
      try {
        bridge = await startVaultBridge({ vaultUrl: target.url!, token: target.token ?? 'root', listen: fakeCloud.listen, ...(fakeCloud.url !== undefined && { advertiseUrl: fakeCloud.url }) })
      } catch (error) {
        io.stderr(`doppel ${suite.command}: ${(error as Error).message}\n`)
        return error instanceof TypeError ? EXIT.unreachable : EXIT.usage
      }
      io.stderr(`doppel ${suite.command}: fake cloud on ${bridge.cloudUrl}, mount ${bridge.mount}\n`)
    }
    target = {
      ...target,
      ...(bridge && { mount: bridge.mount, cloudUrl: bridge.controlUrl, capabilities: ['auth', 'fake-cloud', 'mounts'], prepareMount: bridge.prepareMount }),
      ...(registryUrl !== undefined && { registryUrl }),
      ...(registryToken !== undefined && { registryToken }),
    }
  }
  try {
    return await runSuite({ ...suite, target, files: findScenarioFiles([CONFORMANCE_DIR], io.cwd) }, io)
  } finally {
    await bridge?.close()
  }
}
