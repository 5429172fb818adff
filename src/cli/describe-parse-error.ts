import { didYouMean } from '../core/did-you-mean.ts'

/**
 * A `util.parseArgs` error as one short line, with a did-you-mean for an unknown option among the flags
 * the command's usage text names: `unknown option --prot (did you mean --port?)`.
 */
export function describeParseError(thrown: unknown, usage: string): string {
  const error = thrown as Error & { code?: string }
  const unknown = /^Unknown option '([^']+)'/.exec(error.message)
  if (error.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && unknown) {
    const flag = unknown[1]!
    const names = usage.match(/--[a-z][a-z0-9-]*/g) ?? []
    const suggestion = didYouMean(flag.split('=')[0]!, names)
    return `unknown option ${flag}${suggestion ? ` (did you mean ${suggestion}?)` : ''}`
  }
  if (error.code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') {
    const positional = /'([^']+)'/.exec(error.message)
    return `unexpected argument ${positional ? `"${positional[1]}"` : ''}`.trim()
  }
  return String(error.message).replace(/^Option '([^']+)'/, 'option $1').split('\n')[0]!
}
