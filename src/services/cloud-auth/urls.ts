import { errorsEnvelope, type ServiceUrls } from '../../core/routing/index.ts'

/** Every path of the auth method starts here: its mounts under `auth/`, `sys/auth`, the token self routes. */
export const AUTH_API_PREFIX = '/v1/'

/** A path of the real service outside the method's mounts: `/v1/<rest>` (`sys/health`, `sys/auth`). */
export function apiPath(rest: string): string {
  return AUTH_API_PREFIX + rest
}

const MOUNTS_PREFIX = `${AUTH_API_PREFIX}auth/`

/** A path under one of the method's mounts: `/v1/auth/<mount>`, then `/<rest>` if given; the caller encodes both. */
export function mountPath(mount: string, rest = ''): string {
  return `${MOUNTS_PREFIX}${mount}${rest === '' ? '' : `/${rest}`}`
}

/** Where a mount is enabled and disabled: `/v1/sys/auth/<mount>` (encoded by the caller). */
export function sysAuthPath(mount: string): string {
  return apiPath(`sys/auth/${mount}`)
}

/** A raw path's first segment under `/v1/auth/` (the mount, still encoded) and what follows it (`/…`, or empty). */
export function splitMountPath(path: string): { mount: string; rest: string } | undefined {
  if (!path.startsWith(MOUNTS_PREFIX)) return undefined
  const end = path.indexOf('/', MOUNTS_PREFIX.length)
  const mount = path.slice(MOUNTS_PREFIX.length, end === -1 ? undefined : end)
  return mount === '' ? undefined : { mount, rest: end === -1 ? '' : path.slice(end) }
}

/** The auth method's URLs: everything under `/v1/`, on doppel's own origins. */
export const CLOUD_AUTH_URLS: ServiceUrls<'cloud-auth'> = {
  name: 'cloud-auth',
  ownsPath: (path) => path.startsWith(AUTH_API_PREFIX),
  refusal: (_path, status, message) => errorsEnvelope(status, message),
}
