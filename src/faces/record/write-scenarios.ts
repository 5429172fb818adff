/** Writes recorded exchanges as scenario files: one per session, or one per service (`--split-by service`). */
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { stringify } from 'yaml'
import type { Exchange } from './exchange.ts'
import { buildScenario } from './scenario-builder.ts'

export const SPLIT_RULES = ['session', 'service'] as const
export type SplitRule = (typeof SPLIT_RULES)[number]

export interface WriteOptions {
  out: string
  splitBy: SplitRule
  /** File and scenario name; default `recording-<UTC time>`. */
  name?: string
  now?: Date
}

function serviceOf(exchange: Exchange): 'auth' | 'registry' | 'both' {
  const path = exchange.target.split('?')[0]!
  if (path === '/_doppel/fixtures') return 'both'
  return /^\/(api\/|\.well-known\/|_archivist\/|_doppel\/registry\/)/.test(path) ? 'registry' : 'auth'
}

/** Resolves with the written files' paths; nothing is written for an empty session. */
export async function writeScenarios(exchanges: readonly Exchange[], options: WriteOptions): Promise<string[]> {
  const stamp = (options.now ?? new Date()).toISOString().replace(/[-:]/g, '').replace(/\..*$/, '').replace('T', '-')
  const base = options.name ?? `recording-${stamp}`
  const groups: [string, Exchange[]][] =
    options.splitBy === 'session'
      ? [[base, [...exchanges]]]
      : (['auth', 'registry'] as const).map((service) => [`${base}-${service}`, exchanges.filter((e) => [service, 'both'].includes(serviceOf(e)))])
  await mkdir(options.out, { recursive: true })
  const files: string[] = []
  for (const [name, group] of groups) {
    if (!group.some((exchange) => !exchange.target.startsWith('/_doppel/'))) continue
    const scenario = buildScenario(group, { name, labels: ['recorded'] })
    const file = join(options.out, `${name}.yaml`)
    await writeFile(file, stringify(scenario, { lineWidth: 0, aliasDuplicateObjects: false }))
    files.push(file)
  }
  return files
}
