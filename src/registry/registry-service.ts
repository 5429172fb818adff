import type { RequestContext } from '../core/glossary.ts'
import { NOT_FOUND } from './json-api.ts'

/** The module registry: `/api/v2`, `/api/registry/v1`, discovery and the archivist object URLs. */
export async function registry(_request: Request, _context: RequestContext): Promise<Response> {
  return NOT_FOUND()
}
