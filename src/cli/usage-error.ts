/** A command-line mistake: printed without a stack, with the command's exit code for usage errors. */
export class UsageError extends Error {
  override name = 'UsageError'
}

export interface CliIo {
  stdout: (text: string) => void
  stderr: (text: string) => void
  cwd: string
}
