/** The pieces every service's OpenAPI description is written with. */
import type { Profile } from './profile.ts'

/** An OpenAPI object, as the generator writes it. */
export type Schema = Record<string, unknown>

/** A reference to a component schema. */
export const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` })

/** A body of `schema` under one media type. */
export function jsonContent(schema: Schema, mediaType = 'application/json'): Schema {
  return { content: { [mediaType]: { schema } } }
}

/** The version doppel's documents give (`info.version`). */
export const OPENAPI_VERSION = '0.1.0'

/** An apiKey security scheme per token header, named after the header (`X-Vault-Token` → `xVaultToken`). */
export function tokenSchemes(headers: readonly string[]): Record<string, Schema> {
  const schemes: Record<string, Schema> = {}
  for (const header of headers) schemes[schemeName(header)] = { type: 'apiKey', in: 'header', name: header }
  return schemes
}

function schemeName(header: string): string {
  return header.toLowerCase().replace(/[^a-z0-9]+(.)/g, (_, c: string) => c.toUpperCase())
}

/** What a service says of its paths in doppel's OpenAPI document, for the names a profile gives it. */
export interface OpenApiDescription {
  /** The service's paths, keyed by path, on the profile's names; `tokenSchemes` name the profile's token headers. */
  paths(profile: Profile, tokenSchemes: readonly string[]): Record<string, Schema>
  /** Its security schemes beyond the profile's token headers (the registry's bearer token). */
  securitySchemes?: Record<string, Schema>
  /** Its component schemas. */
  schemas: Record<string, Schema>
}
