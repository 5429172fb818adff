import { errorsEnvelope, type ServiceUrls } from '../../core/routing/index.ts'

/** Every path of the auth method starts here: its mounts under `auth/`, `sys/auth`, the token self routes. */
export const API_PREFIX = '/v1/'

/** The auth method's URLs: everything under `/v1/`, on doppel's own origins. */
export const CLOUD_AUTH_URLS: ServiceUrls<'cloud-auth'> = {
  name: 'cloud-auth',
  ownsPath: (path) => path.startsWith(API_PREFIX),
  refusal: (_path, status, message) => errorsEnvelope(status, message),
}
