/** `tidy/identity-accesslist` and `tidy/roletag-denylist` (docs/reference/cloud-auth.md §3.11, docs/reference/cloud-auth.md §8): a tidy run now. */
import { DEFAULT_SAFETY_BUFFER } from '../limits.ts'
import { MESSAGES } from '../auth-messages.ts'
import type { Endpoint, OperationInput, OperationResult } from '../routing/endpoint.ts'
import type { AuthState } from '../state.ts'
import { tidyAccessList, tidyDenyList } from '../tidy/remove-expired.ts'

type Tidy = (state: AuthState, nowMs: number, safetyBufferSeconds: number) => number

/**
 * The real service starts the tidy in the background and answers 202 at once; doppel finishes it
 * before answering, so a read right after sees the result.
 */
function tidyEndpoint(path: string, run: Tidy): Endpoint {
  return {
    path: `tidy/${path}`,
    fields: { safety_buffer: 'duration' },
    operations: {
      update: ({ context, state, fields }: OperationInput): OperationResult => {
        run(state, context.emulator.clock.nowMs(), fields.duration('safety_buffer') ?? DEFAULT_SAFETY_BUFFER)
        return { status: 202, warnings: [MESSAGES.tidyStarted] }
      },
    },
  }
}

export const tidyDenyListEndpoint = tidyEndpoint('roletag-denylist', tidyDenyList)
export const tidyAccessListEndpoint = tidyEndpoint('identity-accesslist', tidyAccessList)
