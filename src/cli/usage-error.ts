/** A command-line mistake: printed as one line without a stack, with a pointer to `--help`; exit code 1. */
export class UsageError extends Error {
  override name = 'UsageError'
}

/** A command that cannot start (a port in use, an unreadable file): one line without a stack; exit code 1. */
export class StartupError extends Error {
  override name = 'StartupError'
}

export interface CliIo {
  stdout: (text: string) => void
  stderr: (text: string) => void
  cwd: string
}
