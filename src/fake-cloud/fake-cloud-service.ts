import type { RequestContext } from '../core/glossary.ts'

/** The fake cloud provider: IMDS, STS, EC2 and IAM. */
export async function fakeCloud(_request: Request, _context: RequestContext): Promise<Response> {
  return new Response('not found', { status: 404 })
}
