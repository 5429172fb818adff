import type { RegistryState } from '../model/registry-state.ts'

/**
 * Links written into bodies and headers carry the instance's base path (a tenant's `/t/<name>`), so a
 * client that follows them stays in its tenant; `linkPath` for the relative ones, `linkOrigin` for the
 * absolute ones built from the request's origin.
 */
export function linkPath(state: RegistryState, path: string): string {
  return state.emulator.basePath + path
}

export function linkOrigin(state: RegistryState, url: URL): string {
  return url.origin + state.emulator.basePath
}
