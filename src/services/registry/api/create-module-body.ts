import { member, optionalString, requireObject, requireString, resourceData, type JsonObject } from './json-document.ts'
import { MODULE_NAME, PROVIDER_NAME } from '../model/names.ts'
import { registryErrors } from './registry-error.ts'

export interface CreateModule {
  name: string
  provider: string
  noCode: boolean
}

const ATTRIBUTES = '/data/attributes'

/** Reads and validates the body of `POST /organizations/:org/registry-modules`. */
export function parseCreateModule(document: JsonObject): CreateModule {
  const attributes = requireObject(resourceData(document, ['registry-modules']), 'attributes', ATTRIBUTES)
  const name = requireString(attributes, 'name', `${ATTRIBUTES}/name`)
  if (name.length > 64) throw registryErrors.invalidAttribute(`${ATTRIBUTES}/name`, 'tooLong', name)
  if (!MODULE_NAME.test(name)) throw registryErrors.invalidAttribute(`${ATTRIBUTES}/name`, 'invalid', name)
  const provider = requireString(attributes, 'provider', `${ATTRIBUTES}/provider`)
  if (provider.length > 64) throw registryErrors.invalidAttribute(`${ATTRIBUTES}/provider`, 'tooLong', provider)
  if (!PROVIDER_NAME.test(provider)) throw registryErrors.invalidAttribute(`${ATTRIBUTES}/provider`, 'invalid', provider)
  // @note go-tfe omits registry-name and still gets a private module (docs/reference/registry.md §3.1).
  const registryName = optionalString(attributes, 'registry-name', `${ATTRIBUTES}/registry-name`) ?? 'private'
  if (registryName === 'public') throw registryErrors.forbidden('public module curation is not available in this organization')
  if (registryName !== 'private') throw registryErrors.invalidAttribute(`${ATTRIBUTES}/registry-name`, 'inclusion', registryName)
  const namespace = member(attributes, 'namespace')
  if (namespace !== undefined && namespace !== null) throw registryErrors.invalidAttribute(`${ATTRIBUTES}/namespace`, 'present', namespace)
  const noCode = member(attributes, 'no-code') ?? false
  if (typeof noCode !== 'boolean') throw registryErrors.invalidAttribute(`${ATTRIBUTES}/no-code`, 'notBoolean', noCode)
  return { name, provider, noCode }
}
