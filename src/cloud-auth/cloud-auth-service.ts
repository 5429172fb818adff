import type { RequestContext } from '../core/glossary.ts'
import { authError, multiError } from './envelope.ts'

/** The cloud auth service under `/v1/auth/<mount>/`. */
export async function cloudAuth(_request: Request, _context: RequestContext): Promise<Response> {
  return authError(404, multiError('unsupported path'))
}
