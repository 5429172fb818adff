import { spawn, type ChildProcess } from 'node:child_process'

/**
 * Starts a long-running doppel command and resolves once it prints its ready line (`… on http://…`), with
 * the URL it names and its stderr so far; rejects with that stderr when it exits first. `onSpawn` gets the
 * process at once, so the caller can stop it even if it never gets ready.
 */
export async function startUntilReady(
  command: string,
  args: string[],
  { env = process.env, onSpawn }: { env?: NodeJS.ProcessEnv; onSpawn?: (child: ChildProcess) => void } = {},
): Promise<{ child: ChildProcess; url: string; stderr: () => string }> {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], env })
  onSpawn?.(child)
  let stderr = ''
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  let stdout = ''
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString()
      const match = /on (http:\/\/\S+)\n/.exec(stdout)
      if (match) resolve(match[1]!)
    })
    child.once('exit', (code) => reject(new Error(`exited ${code} before its ready line: ${stderr}`)))
  })
  return { child, url, stderr: () => stderr }
}
