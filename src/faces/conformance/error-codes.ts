/** The error codes the real-Vault bridge throws, with what each means (see `core/doppel-error.ts`). */
export const CONFORMANCE_ERROR_CODES = {
  DOPPEL_VAULT_BRIDGE: 'the real-Vault bridge could not be set up',
} as const

declare module '../../core/doppel-error.ts' {
  interface DoppelErrorCodes extends Record<keyof typeof CONFORMANCE_ERROR_CODES, string> {}
}
