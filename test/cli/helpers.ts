import { main } from '../../src/cli/main.ts'

/** A CliIo whose output is kept in strings. */
export function fakeIo() {
  const out = { stdout: '', stderr: '' }
  return { out, io: { stdout: (text: string) => void (out.stdout += text), stderr: (text: string) => void (out.stderr += text), cwd: process.cwd() } }
}

/** The exit code and output of `doppel <argv>`, run in this process. */
export async function doppel(...argv: string[]) {
  const { out, io } = fakeIo()
  const code = await main(argv, io)
  return { code, ...out }
}
