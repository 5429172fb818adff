import { errorsEnvelope, type ServiceUrls } from '../../core/routing/index.ts'

export const CONTROL_PREFIX = '/_doppel/'

/** A control API path: `/_doppel/<rest>` (encoded by the caller). */
export function controlPath(rest: string): string {
  return CONTROL_PREFIX + rest
}

/**
 * The control API's URLs: everything under `/_doppel/` that no service owns as its own set-up routes or
 * AWS faces (the router asks the services first).
 */
export const CONTROL_URLS: ServiceUrls<'control'> = {
  name: 'control',
  ownsPath: (path) => path.startsWith(CONTROL_PREFIX),
  refusal: (_path, status, message) => errorsEnvelope(status, message),
}

/** Whether a raw request target reaches the control API or its door (`/_doppel`, `/_doppel?…`): the server's guard guards them alike. */
export function isControlTarget(target: string): boolean {
  return target.startsWith(CONTROL_PREFIX) || target === '/_doppel' || target.startsWith('/_doppel?')
}
