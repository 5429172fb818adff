/**
 * What the session read of a server's starting state, for an upstream whose state cannot be captured (not a
 * doppel, or no `--upstream-token`): a role the session read before writing it existed before the
 * recording, and becomes a role of the scenario's fixture, so the replay finds it.
 */
import { SCHEMAS } from '../../features/documents/index.ts'
import { splitMountPath } from '../../services/cloud-auth/urls.ts'

/** The role fields a fixture takes (its schema's), the only ones written. */
const ROLE_FIELDS = new Set(Object.keys((SCHEMAS['fixture.schema.json'] as { $defs: { role: { properties: object } } }).$defs.role.properties))

/** The role's name in a path `/v1/auth/<mount>/role/<name>`, still encoded; undefined for any other path. */
export function roleOfPath(path: string): string | undefined {
  const rest = splitMountPath(path)?.rest
  return rest === undefined ? undefined : /^\/role\/([^/]+)$/.exec(rest)?.[1]
}

/** A role read's `data` as a fixture role: the fixture's fields, without the empty values a read shows for what was never set. */
export function roleFixture(data: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(data).filter(([key, value]) => ROLE_FIELDS.has(key) && value !== null && value !== '' && !(Array.isArray(value) && value.length === 0)))
}
