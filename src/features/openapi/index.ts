/** The OpenAPI 3.1 description of both emulated services, generated from their route definitions. */
export { openApiDocument, vaultOpenApiDocument, type OpenApiOptions } from './document.ts'
