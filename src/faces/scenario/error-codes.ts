/** The error codes the scenario engine and its targets throw, with what each means (see `core/doppel-error.ts`). */
export const SCENARIO_ERROR_CODES = {
  DOPPEL_INVALID_TEMPLATE: 'a `${{ }}` template that does not parse or resolve',
  DOPPEL_INVALID_JSON_PATH: 'a capture path outside the JSONPath subset',
  DOPPEL_INVALID_LABEL_EXPRESSION: 'a --label expression that does not parse',
  DOPPEL_TARGET_FAILED: 'a target action the service, the control API or the network refused',
  DOPPEL_TARGET_UNREACHABLE: 'the target did not answer at all',
} as const

declare module '../../core/doppel-error.ts' {
  interface DoppelErrorCodes extends Record<keyof typeof SCENARIO_ERROR_CODES, string> {}
}
