import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'

const BIN = new URL('../../bin/doppel.js', import.meta.url).pathname

export interface ServeProcess {
  child: ChildProcess
  url: string
  port: number
  stderr(): string
}

/** Starts `node bin/doppel.js serve …` and resolves once it printed its listening line. */
export async function startServe(args: string[]): Promise<ServeProcess> {
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--quiet', ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
  let stderr = ''
  child.stderr!.on('data', (chunk) => (stderr += chunk))
  const [line] = (await once(child.stdout!, 'data')) as [Buffer]
  const match = /^doppel listening on (https?):\/\/[^:]+:(\d+)\n$/.exec(line.toString())
  if (!match) throw new Error(`unexpected first line: ${line.toString()} ${stderr}`)
  const port = Number(match[2])
  return { child, url: `${match[1]}://127.0.0.1:${port}`, port, stderr: () => stderr }
}

/** Stops a child that is still running (after a failed test). */
export async function stopServe(serve: ServeProcess | undefined): Promise<void> {
  if (serve && serve.child.exitCode === null && serve.child.signalCode === null) {
    serve.child.kill('SIGKILL')
    await once(serve.child, 'exit')
  }
}
