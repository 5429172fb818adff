/**
 * Run by vitest-integration.test.ts in a nested vitest: scenarios registered through `doppel/vitest`
 * against a target that lacks the clock, so the reporter output shows static and run-time skips.
 */
import { describeScenarios } from '../../../src/faces/scenario/vitest.ts'
import { plainHttpTarget } from '../helpers.ts'

const { target } = await plainHttpTarget([])
await describeScenarios(['test/scenario/vitest-suite/flows'], { target })
