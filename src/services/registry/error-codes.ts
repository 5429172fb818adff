/** The error codes the registry throws, with what each means (see `core/doppel-error.ts`); the `status` property carries the HTTP status. */
export const REGISTRY_ERROR_CODES = {
  DOPPEL_REGISTRY_UNAUTHORIZED: 'no or an unknown registry token',
  DOPPEL_REGISTRY_FORBIDDEN: 'a registry token without the right',
  DOPPEL_REGISTRY_NOT_FOUND: 'no such organization, module or version',
  DOPPEL_REGISTRY_CONFLICT: 'a registry write that conflicts with the stored state',
  DOPPEL_REGISTRY_BODY_TOO_LARGE: 'a registry request body over the limit',
  DOPPEL_REGISTRY_CONTENT_TYPE: 'a registry request without the JSON:API content type',
  DOPPEL_REGISTRY_INVALID_ARCHIVE: 'an upload that is not a module archive',
  DOPPEL_REGISTRY_INVALID_ATTRIBUTE: 'a JSON:API attribute that does not validate',
  DOPPEL_INVALID_REGISTRY_FIXTURE: 'a registry fixture that does not seed; nothing was stored',
  DOPPEL_INVALID_TAR: 'a corrupt or truncated tar archive',
  DOPPEL_INVALID_ARCHIVE: 'an upload that is not a readable module tarball',
} as const

declare module '../../core/doppel-error.ts' {
  interface DoppelErrorCodes extends Record<keyof typeof REGISTRY_ERROR_CODES, string> {}
}
