import type { InstanceState } from '../glossary.ts'

/** EC2's numeric instance state codes (docs/reference/fake-cloud.md §6.2). */
export const INSTANCE_STATE_CODES: Record<InstanceState, number> = {
  pending: 0,
  running: 16,
  'shutting-down': 32,
  terminated: 48,
  stopping: 64,
  stopped: 80,
}
