/**
 * The error codes the features throw (the `Doppel` class, tenants, `--data-dir`, fixtures and scenario
 * documents), with what each means (see `core/doppel-error.ts`).
 */
export const FEATURE_ERROR_CODES = {
  DOPPEL_CONNECTION_DROPPED: 'a `drop` fault, or a delayed request ended by shutdown',
  DOPPEL_INVALID_TENANT_NAME: 'a tenant name that is not 1 to 63 of a-z, 0-9 and -',
  DOPPEL_DATA_DIR: 'the --data-dir cannot be used at start',
  DOPPEL_INVALID_FIXTURE: 'a fixture that does not validate or that a service refused; nothing was loaded',
  DOPPEL_FIXTURE_PART_REFUSED: 'one part of a fixture a service refused',
  DOPPEL_INVALID_SCENARIO: 'a scenario or targets file that does not validate (the first 30 issues listed, then a count of the rest)',
  DOPPEL_SEED_REFUSED: "a seed helper's change (`doppel.registry.deprecate`) the service refused",
} as const

declare module '../../core/doppel-error.ts' {
  interface DoppelErrorCodes extends Record<keyof typeof FEATURE_ERROR_CODES, string> {}
}
