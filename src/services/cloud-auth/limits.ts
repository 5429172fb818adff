/** Constants of the auth method's mount (docs/reference/cloud-auth.md §1.9, docs/reference/cloud-auth.md §8). */

/** The mount's default lease TTL in seconds: the system default, 768h. */
export const MOUNT_DEFAULT_TTL = 2764800

/** The mount's maximum lease TTL in seconds: the system maximum, 768h. */
export const MOUNT_MAX_TTL = 2764800

/** Tidy safety buffer in seconds when none is configured: 72h, as the spec states for both lists. */
export const DEFAULT_SAFETY_BUFFER = 259200

/** How often the periodic tidy runs at most (the real service's cooldown): one hour, in ms. */
export const PERIODIC_TIDY_INTERVAL_MS = 3_600_000

/** EC2 tag limits the role tag follows: key 127 characters, value 255. */
export const ROLE_TAG_KEY_LIMIT = 127
export const ROLE_TAG_VALUE_LIMIT = 255
