/**
 * Old spellings of `doppel serve`, read for one more release with a one-line warning each:
 * `--seed <file>` (now `--fixtures <file>`) and `--random-seed <n>` (now `--seed <n>`). Remove this
 * file, and its use in serve-command.ts, when they go.
 */
import type { CliIo } from '../core/cli-io.ts'
import { isSeed } from './flags.ts'
import { UsageError } from './usage-error.ts'

/** Serve's `--seed` stays repeatable while a file name is still read as a fixture file. */
export const SERVE_SEED_OPTIONS = {
  seed: { type: 'string', multiple: true, value: '<n>', help: 'Random seed: makes ids and tokens repeatable' },
  'random-seed': { type: 'string', hidden: true, help: 'The old spelling of --seed <n>' },
} as const

/**
 * The random seed and the fixture files of `doppel serve`: an integer `--seed` is the seed, any other
 * value a fixture file; `--random-seed` is the seed.
 */
export function serveSeedFlags(values: { seed?: string[]; 'random-seed'?: string; fixtures?: string[] }, io: CliIo): { seed?: string; fixtures: string[] } {
  const given = values.seed ?? []
  const oldFiles = given.filter((value) => !isSeed(value))
  const seeds = given.filter(isSeed)
  if (oldFiles.length > 0) io.stderr('doppel serve: warning: --seed <file> is now --fixtures <file> (--seed takes the random seed); the old spelling goes in the next release\n')
  if (values['random-seed'] !== undefined) {
    io.stderr('doppel serve: warning: --random-seed <n> is now --seed <n>; the old spelling goes in the next release\n')
    seeds.push(values['random-seed'])
  }
  if (seeds.length > 1) throw new UsageError(`doppel serve: --seed takes one random seed, not ${seeds.map((seed) => `"${seed}"`).join(' and ')}`)
  return { ...(seeds.length === 1 && { seed: seeds[0]! }), fixtures: [...oldFiles, ...(values.fixtures ?? [])] }
}
