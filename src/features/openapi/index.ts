/** The OpenAPI 3.1 description of the emulated services, generated from their route definitions. */
export { openApiDocument, type OpenApiOptions } from './document.ts'
