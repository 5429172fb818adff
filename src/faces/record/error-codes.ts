/** The error codes the recorder throws (and the commands that cannot start), with what each means (see `core/doppel-error.ts`). */
export const RECORD_ERROR_CODES = {
  DOPPEL_STARTUP: 'a command that cannot start (port in use, unreadable file)',
} as const

declare module '../../core/doppel-error.ts' {
  interface DoppelErrorCodes extends Record<keyof typeof RECORD_ERROR_CODES, string> {}
}
