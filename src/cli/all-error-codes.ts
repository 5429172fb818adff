import { CORE_ERROR_CODES, type DoppelErrorCode } from '../core/doppel-error.ts'
import { CONFORMANCE_ERROR_CODES } from '../faces/conformance/error-codes.ts'
import { RECORD_ERROR_CODES } from '../faces/record/error-codes.ts'
import { SCENARIO_ERROR_CODES } from '../faces/scenario/error-codes.ts'
import { FEATURE_ERROR_CODES } from '../features/doppel/error-codes.ts'
import { CLOUD_AUTH_ERROR_CODES } from '../services/cloud-auth/error-codes.ts'
import { REGISTRY_ERROR_CODES } from '../services/registry/error-codes.ts'
import { CLI_ERROR_CODES } from './error-codes.ts'

/** Every error code with its meaning, floor by floor, each as its floor lists it (docs/errors.md tables them). */
export const ERROR_CODES: Readonly<Record<DoppelErrorCode, string>> = {
  ...CORE_ERROR_CODES,
  ...CLOUD_AUTH_ERROR_CODES,
  ...REGISTRY_ERROR_CODES,
  ...FEATURE_ERROR_CODES,
  ...SCENARIO_ERROR_CODES,
  ...RECORD_ERROR_CODES,
  ...CONFORMANCE_ERROR_CODES,
  ...CLI_ERROR_CODES,
}
