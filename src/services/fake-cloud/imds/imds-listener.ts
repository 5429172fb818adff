import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { toFetchRequest, writeFetchResponse } from '../../../core/node-adapter.ts'
import { isLoopbackHost } from '../../../core/host-names.ts'
import { isMetadataHost } from '../urls.ts'
import { cloudErrors } from '../cloud-errors.ts'
import { cloudState, type CloudState } from '../cloud-state.ts'
import { serveImds } from './imds-service.ts'
import { imdsListenerPool } from '../options.ts'

/**
 * A real socket for one instance's metadata service, for clients that cannot be pointed at a path prefix
 * (`AWS_EC2_METADATA_SERVICE_ENDPOINT=http://127.0.0.1:PORT`). Started once per instance, at most
 * `fakeCloud.imdsListenerLimit` at once across a server and its tenants (each holds a file descriptor); closed by
 * `closeListener`, `closeListeners`, the instance's termination and the emulator's `reset()`.
 */
export async function startImdsListener(state: CloudState, instanceId: string): Promise<{ endpoint: string }> {
  if (!state.instances.has(instanceId)) throw cloudErrors.instanceNotFound([instanceId])
  let listener = state.listeners.get(instanceId)
  if (listener === undefined) {
    const { emulator } = state
    const pool = imdsListenerPool(emulator)
    const server = createServer((req, res) => {
      // A page that rebinds its name to 127.0.0.1 must not read an instance's credentials.
      const host = req.headers.host
      if (!isLoopbackHost(host) && !isMetadataHost(host?.toLowerCase() ?? '')) return void res.writeHead(403, { 'Content-Type': 'text/plain; charset=utf-8' }).end('403 Forbidden: Host not allowed\n')
      toFetchRequest(req, '169.254.169.254')
        .then((request) => writeFetchResponse(res, serveImds(cloudState(emulator), instanceId, request, new URL(request.url).pathname)))
        .catch(() => res.destroy())
    })
    if (!pool.hold(server)) throw cloudErrors.listenerLimit(pool.limit)
    server.once('close', () => pool.release(server))
    const endpoint = new Promise<string>((resolve, reject) => {
      server.once('error', reject)
      server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`))
    })
    server.unref()
    listener = { server, endpoint }
    state.listeners.set(instanceId, listener)
    if (!state.closeListenersOnReset) {
      state.closeListenersOnReset = true
      // Holds the map, not the state: a reset drops the state, and only its sockets need closing.
      const { listeners } = state
      emulator.onReset(() => void closeAll(listeners))
    }
    endpoint.catch(() => {
      state.listeners.delete(instanceId)
      pool.release(server)
    })
  }
  return { endpoint: await listener.endpoint }
}

/** Closes one instance's listener, if it has one; answers whether it had. */
export async function closeListener(state: CloudState, instanceId: string): Promise<boolean> {
  const listener = state.listeners.get(instanceId)
  if (listener === undefined) return false
  state.listeners.delete(instanceId)
  await closeServer(listener.server)
  return true
}

/** Closes every listener of this state (dropping open connections). */
export function closeListeners(state: CloudState): Promise<void> {
  return closeAll(state.listeners)
}

async function closeAll(listeners: CloudState['listeners']): Promise<void> {
  const servers = [...listeners.values()].map((listener) => listener.server)
  listeners.clear()
  await Promise.all(servers.map(closeServer))
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve())
    server.closeAllConnections()
  })
}
