import { optionalString, requireObject, requireString, resourceData, type JsonObject } from './json-document.ts'
import { registryErrors } from './registry-error.ts'
import { isSemver } from '../model/semver.ts'

export interface CreateVersion {
  version: string
  commitSha: string | null
}

const ATTRIBUTES = '/data/attributes'

/** Reads and validates the body of `POST …/registry-modules/…/:provider/versions` (docs/reference/registry.md §3.2). */
export function parseCreateVersion(document: JsonObject): CreateVersion {
  const attributes = requireObject(resourceData(document, ['registry-module-versions']), 'attributes', ATTRIBUTES)
  const version = requireString(attributes, 'version', `${ATTRIBUTES}/version`)
  if (!isSemver(version)) throw registryErrors.invalidAttribute(`${ATTRIBUTES}/version`, 'invalid', version)
  return { version, commitSha: optionalString(attributes, 'commit-sha', `${ATTRIBUTES}/commit-sha`) ?? null }
}
