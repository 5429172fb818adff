import type { Emulator } from '../../core/emulator.ts'
import { isFakeCloudHost } from './urls.ts'
import { cloudState } from './cloud-state.ts'
import { CLOUD_MOUNT } from './urls.ts'

/**
 * The origins (`http://host:port`) at which this emulator's own fake-cloud listener answers (`--cloud-port`,
 * the conformance bridge's `--fake-cloud-listen`): an endpoint override naming one stays in process.
 * Kept across resets, like the listener itself.
 */
export function registerCloudListener(emulator: Emulator, url: string): void {
  const origin = new URL(url).origin
  const add = () => cloudState(emulator).ownOrigins.add(origin)
  add()
  emulator.onReset(add)
}


/**
 * Whether a provider endpoint override is answered in process: empty (the provider's real hostnames), a
 * fake-cloud hostname, doppel's `/_doppel/cloud/…` mount, or a registered cloud listener. Anything else is
 * a real outgoing request.
 */
export function isInProcessEndpoint(emulator: Emulator, endpoint: string): boolean {
  if (endpoint === '') return true
  const url = URL.parse(endpoint)
  if (url === null) return false
  if (isFakeCloudHost(url.hostname)) return true
  if (url.pathname.startsWith(CLOUD_MOUNT)) return true
  return cloudState(emulator).ownOrigins.has(url.origin)
}
