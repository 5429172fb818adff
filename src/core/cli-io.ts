/**
 * Where a command's text goes, and the directory its relative paths start from: the process's streams
 * for the `doppel` bin, strings in tests. Every floor that writes for a command takes this one shape.
 */
export interface CliIo {
  stdout: (text: string) => void
  stderr: (text: string) => void
  cwd: string
}
