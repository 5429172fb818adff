/** The error codes the command line throws, with what each means (see `core/doppel-error.ts`). */
export const CLI_ERROR_CODES = {
  DOPPEL_USAGE: 'a command-line mistake',
} as const

declare module '../core/doppel-error.ts' {
  interface DoppelErrorCodes extends Record<keyof typeof CLI_ERROR_CODES, string> {}
}
