// One flag table per command: the parser reads it, the help is made from it, and docs/server.md lists
// every flag of it in that command's options table (and nothing else). A flag added to a table and not
// to the docs fails here, as a planted one shows.
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { COMPARE_FLAGS } from '../../src/cli/compare-command.ts'
import { CONFORMANCE_FLAGS } from '../../src/cli/conformance-command.ts'
import { VAULT_CONTAINER_FLAGS } from '../../src/cli/conformance-vault-command.ts'
import type { FlagTable } from '../../src/cli/flag-table.ts'
import { OPENAPI_FLAGS } from '../../src/cli/openapi-command.ts'
import { RECORD_FLAGS } from '../../src/cli/record-command.ts'
import { RUN_FLAGS } from '../../src/cli/run-command.ts'
import { SERVE_FLAGS } from '../../src/cli/serve-command.ts'
import { doppel } from './helpers.ts'

const DOCS = readFileSync(new URL('../../docs/server.md', import.meta.url), 'utf8')

const TABLES: Record<string, FlagTable> = {
  serve: SERVE_FLAGS,
  run: RUN_FLAGS,
  conformance: CONFORMANCE_FLAGS,
  'conformance-vault': VAULT_CONTAINER_FLAGS,
  record: RECORD_FLAGS,
  compare: COMPARE_FLAGS,
  openapi: OPENAPI_FLAGS,
}

/**
 * The flags of a command's options table in the docs: the first table after the line that names
 * `doppel <command>` (with its arguments or not) and ends with "options:"; each `--flag` in a code span of its first column, with
 * whether a value follows it there.
 */
function documentedFlags(markdown: string, command: string): Map<string, boolean> {
  const lines = markdown.split('\n')
  const intro = lines.findIndex((line) => (line.includes(`\`doppel ${command}\``) || line.includes(`\`doppel ${command} `)) && /options:$/i.test(line.trim()))
  if (intro === -1) throw new Error(`docs/server.md has no options table for doppel ${command}`)
  const flags = new Map<string, boolean>()
  let row = intro + 1
  while (lines[row]?.trim() === '') row++
  for (; lines[row]?.startsWith('|'); row++) {
    const first = lines[row]!.split(/(?<!\\)\|/)[1] ?? ''
    for (const [, name, value] of first.matchAll(/`--([a-z0-9-]+)([^`]*)`/g)) flags.set(name!, value!.trim() !== '')
  }
  return flags
}

/** Where a command's flag table and its docs table disagree, one line each; empty when they agree. */
function disagreements(table: FlagTable, documented: Map<string, boolean>): string[] {
  const problems: string[] = []
  for (const [name, row] of Object.entries(table)) {
    if (row.hidden) continue
    const takesValue = row.type === 'string'
    if (!documented.has(name)) problems.push(`--${name} is parsed and in the help, but not in the docs`)
    else if (documented.get(name) !== takesValue) problems.push(`--${name} ${takesValue ? 'takes' : 'takes no'} value, unlike the docs`)
  }
  for (const name of documented.keys()) if (!(name in table) || table[name]!.hidden) problems.push(`--${name} is in the docs but no flag`)
  return problems
}

describe('flag tables', () => {
  it.each(Object.keys(TABLES))("docs/server.md lists every flag of doppel %s, and no other", (command) => {
    expect(disagreements(TABLES[command]!, documentedFlags(DOCS, command))).toEqual([])
  })

  it('a flag missing from the docs, one the docs name that is none, and a value the docs leave out are reported', () => {
    const planted = { ...SERVE_FLAGS, 'planted-flag': { type: 'string', value: '<x>', help: 'Planted' } } as const satisfies FlagTable
    expect(disagreements(planted, documentedFlags(DOCS, 'serve'))).toEqual(['--planted-flag is parsed and in the help, but not in the docs'])
    const docs = DOCS.replace('| `--quiet` |', '| `--quiet`, `--planted-doc` |').replace('`--data-dir <dir>`', '`--data-dir`')
    expect(disagreements(SERVE_FLAGS, documentedFlags(docs, 'serve'))).toEqual(['--data-dir takes value, unlike the docs', '--planted-doc is in the docs but no flag'])
  })

  it.each(Object.keys(TABLES))('doppel %s --help shows every flag of its table but the hidden ones', async (command) => {
    const { stdout } = await doppel(command, '--help')
    for (const [name, row] of Object.entries(TABLES[command]!)) expect(stdout.includes(`--${name} `) || stdout.includes(`--${name}\n`), name).toBe(!row.hidden)
  })
})
