import { describeValue } from '../../../core/describe-value.ts'
import { isObject, member, optionalString, requireObject, resourceData, type JsonObject } from './json-document.ts'
import { registryErrors } from './registry-error.ts'

/** What a PATCH on a module version asks for; the route is shared, the body decides (docs/reference/registry.md §7.1). */
export type VersionPatch =
  | { kind: 'deprecate'; reason: string; link: string }
  | { kind: 'undeprecate' }
  | { kind: 'revoke'; message: string; link: string }
  | { kind: 'unrevoke' }

/** `data.type` as documented for deprecation, and as the rest of the API names versions (docs/reference/registry.md §7.2). */
const PATCH_TYPES = ['module-versions', 'registry-module-versions']
const DEPRECATION = '/data/attributes/deprecation'
const REVOCATION = '/data/attributes/revocation'

/** Reads and validates the PATCH body; the first failure wins, as a 422 with `source.pointer`. */
export function parseVersionPatch(document: JsonObject): VersionPatch {
  const data = resourceData(document, PATCH_TYPES)
  const attributes = member(data, 'attributes')
  const relationships = member(data, 'relationships')
  const wantsTags = isObject(relationships) && member(relationships, 'tag-bindings') !== undefined
  if ((attributes === undefined || attributes === null) && wantsTags) {
    throw registryErrors.invalidAttribute('/data/relationships/tag-bindings', 'unsupported')
  }
  if (attributes === undefined || attributes === null) throw registryErrors.invalidAttribute('/data/attributes', 'blank')
  if (!isObject(attributes)) throw registryErrors.invalidAttribute('/data/attributes', 'notObject', attributes)
  const hasDeprecation = member(attributes, 'deprecation') !== undefined
  const hasRevocation = member(attributes, 'revocation') !== undefined
  if (hasDeprecation && hasRevocation) throw registryErrors.invalidAttribute('/data/attributes', 'oneOperation', 'deprecation and revocation')
  if (hasRevocation) return parseRevocation(requireObject(attributes, 'revocation', REVOCATION))
  return parseDeprecation(requireObject(attributes, 'deprecation', DEPRECATION))
}

function status(object: JsonObject, key: string, pointer: string, allowed: readonly string[]): string {
  const value = member(object, key)
  if (value === undefined || value === null || value === '') throw registryErrors.invalidAttribute(pointer, 'blank', value)
  if (typeof value !== 'string') throw registryErrors.invalidAttribute(pointer, 'notString', value)
  if (!allowed.includes(value)) throw registryErrors.invalidAttribute(pointer, 'inclusion', value).explain({ rule: `${pointer}: inclusion`, seen: describeValue(value), expected: allowed.join(' or ') })
  return value
}

function link(object: JsonObject, pointer: string): string {
  const value = optionalString(object, 'link', pointer) ?? ''
  if (value !== '' && !isHttpUrl(value)) throw registryErrors.invalidAttribute(pointer, 'notUrl', value)
  return value
}

function isHttpUrl(value: string): boolean {
  if (!URL.canParse(value)) return false
  const { protocol } = new URL(value)
  return protocol === 'http:' || protocol === 'https:'
}

function parseDeprecation(deprecation: JsonObject): VersionPatch {
  const value = status(deprecation, 'deprecated-status', `${DEPRECATION}/deprecated-status`, ['Deprecated', 'Undeprecated'])
  if (value === 'Undeprecated') return { kind: 'undeprecate' }
  return {
    kind: 'deprecate',
    reason: optionalString(deprecation, 'reason', `${DEPRECATION}/reason`) ?? '',
    link: link(deprecation, `${DEPRECATION}/link`),
  }
}

function parseRevocation(revocation: JsonObject): VersionPatch {
  const value = status(revocation, 'status', `${REVOCATION}/status`, ['Revoked', 'Unrevoked'])
  if (value === 'Unrevoked') return { kind: 'unrevoke' }
  return {
    kind: 'revoke',
    message: optionalString(revocation, 'message', `${REVOCATION}/message`) ?? '',
    link: link(revocation, `${REVOCATION}/link`),
  }
}
