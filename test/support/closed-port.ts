import { createServer } from 'node:net'

/**
 * A loopback port nothing listens on (taken and let go): an unreachable server that fetch still tries.
 * Ports 1 and 9 are not that: fetch refuses them outright as "bad ports" of the Fetch standard.
 */
export function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
}
