/**
 * A command's flags as one table: each row is what `node:util` `parseArgs` reads (type, multiple, short,
 * default) plus what the help says of it. The parser gets the table as it is (parseArgs ignores the help
 * fields) and the help's option lines are made from it, so a flag cannot be parsed without being shown;
 * `test/cli/flag-tables.test.ts` checks the docs' option tables against the same rows.
 */
import type { ParseArgsOptionDescriptor } from 'node:util'

interface FlagRow extends ParseArgsOptionDescriptor {
  /** The value's placeholder in the help (`<n>`, `<file>`); a string flag without one shows `<value>`. */
  value?: string
  /** The help line(s); later lines continue under the first. */
  help: string
  /** Parsed but not shown (an old spelling read for one more release). */
  hidden?: boolean
}

export type FlagTable = Readonly<Record<string, FlagRow>>

/** `-h/--help`, which every command takes (the parser adds it). */
export const HELP_FLAG = { help: { type: 'boolean', short: 'h', default: false, help: 'Show this help' } } as const satisfies FlagTable

/** Where the help's descriptions start, as in every command's help so far. */
const HELP_COLUMN = 24

/** `--name <value>` as the help and the docs show it. */
const flagSpelling = (name: string, row: FlagRow): string => `--${name}${row.type === 'string' ? ` ${row.value ?? '<value>'}` : ''}`

/** The option lines of a command's help, one row (or more, for a long text) per shown flag, in table order. */
export function flagHelp(table: FlagTable, column = HELP_COLUMN): string {
  const lines: string[] = []
  for (const [name, row] of Object.entries(table)) {
    if (row.hidden) continue
    const spelled = `  ${row.short ? `-${row.short}, ` : ''}${flagSpelling(name, row)}`
    const [first, ...rest] = row.help.split('\n')
    lines.push(`${spelled.length < column ? spelled.padEnd(column) : `${spelled}  `}${first}`)
    for (const line of rest) lines.push(`${' '.repeat(column)}${line}`)
  }
  return lines.join('\n')
}
