import type { CliIo } from '../core/cli-io.ts'
import { DEFAULT_VAULT_IMAGE, runConformanceInVaultContainer } from '../faces/conformance/index.ts'
import { parseOptions } from './parse-options.ts'
import { flagHelp, HELP_FLAG, type FlagTable } from './flag-table.ts'
import { SUITE_HELP_COLUMN, SUITE_OPTIONS, suiteFlags } from './suite-flags.ts'
import { UsageError } from './usage-error.ts'

/** Every flag of `doppel conformance-vault`. */
export const VAULT_CONTAINER_FLAGS = {
  image: { type: 'string', value: '<image>', help: `Vault image (default ${DEFAULT_VAULT_IMAGE}, or $DOPPEL_VAULT_IMAGE)` },
  ...SUITE_OPTIONS,
} as const satisfies FlagTable

export const VAULT_CONTAINER_USAGE = `Usage: doppel conformance-vault [--image <image>] [options]

Runs the cloud-auth conformance scenarios against a real Vault started in a container (dev mode, through
testcontainers, which must be installed: npm i -D testcontainers). The fake cloud is served to it from this
process; the method is enabled on a fresh mount. Without a container runtime the suite is reported skipped
with the reason, and the exit code is 0.

Options:
${flagHelp({ ...VAULT_CONTAINER_FLAGS, ...HELP_FLAG }, SUITE_HELP_COLUMN)}

Without --label, the scenarios labelled 'cloud-auth and not emulator-defined' run.`

/** `doppel conformance-vault`: the conformance suite against Vault in a container; the exit code. */
export async function conformanceVaultCommand(argv: string[], io: CliIo, env = process.env): Promise<number> {
  const line = parseOptions('conformance-vault', argv, VAULT_CONTAINER_FLAGS, VAULT_CONTAINER_USAGE, io)
  if (!line) return 0
  const { values } = line
  if (values.image === '') throw new UsageError('doppel conformance-vault: --image needs a value')
  const image = values.image ?? env.DOPPEL_VAULT_IMAGE ?? DEFAULT_VAULT_IMAGE
  return runConformanceInVaultContainer({ command: 'conformance-vault', image, ...suiteFlags('conformance-vault', values, io.cwd) }, io)
}
