/** The registry's OpenAPI components: its JSON:API document and error bodies, and the v1 reads' errors. */
import type { Schema } from '../../../core/openapi-schema.ts'
import { V2_PREFIX } from '../urls.ts'

export const REGISTRY_SCHEMAS: Record<string, Schema> = {
  JsonApiDocument: {
    type: 'object',
    properties: {
      data: { oneOf: [{ type: 'object', additionalProperties: true }, { type: 'array', items: { type: 'object' } }] },
      included: { type: 'array', items: { type: 'object' } },
      links: { type: 'object' },
      meta: { type: 'object' },
    },
    additionalProperties: true,
  },
  JsonApiErrors: {
    type: 'object',
    description: `JSON:API error document of \`${V2_PREFIX.slice(0, -1)}\``,
    required: ['errors'],
    properties: {
      errors: {
        type: 'array',
        items: {
          type: 'object',
          required: ['status', 'title'],
          properties: {
            status: { type: 'string' },
            title: { type: 'string' },
            detail: { type: 'string' },
            source: { type: 'object', properties: { pointer: { type: 'string' } } },
          },
        },
      },
    },
  },
  RegistryV1Errors: {
    type: 'object',
    description: 'Error body of the registry protocol: `{"errors":["Not Found"]}`',
    required: ['errors'],
    properties: { errors: { type: 'array', items: { type: 'string' } } },
  },
}
