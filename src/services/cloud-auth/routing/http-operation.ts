/**
 * From an HTTP request to the logical operation and its data (docs/reference/cloud-auth.md §1.1, docs/reference/cloud-auth.md §1.3), as the real
 * service's HTTP layer does before any token check or routing.
 */
import { authError, multiError } from '../envelope.ts'
import { explainResponse } from '../../../core/explanation.ts'
import { parseGoBool } from '../../../core/go/go-strconv.ts'
import { parseGoMediaType } from '../../../core/go/go-mime.ts'
import { MESSAGES } from '../auth-messages.ts'
import { queryData, readRequestData } from '../request-body.ts'
import type { Operation } from './endpoint.ts'

export interface HttpOperation {
  operation: Operation
  data: Record<string, unknown>
}

const MERGE_PATCH = 'application/merge-patch+json'

/**
 * The operation and data of a request, or the error response the HTTP layer answers with; a body it cannot
 * read throws a `RequestDataError` for the service's edge to answer.
 */
export async function httpOperation(request: Request, url: URL): Promise<HttpOperation | Response> {
  switch (request.method) {
    case 'GET': {
      // `searchParams` builds a URLSearchParams; most reads carry no query at all.
      const list = url.search === '' ? '' : (url.searchParams.get('list') ?? '')
      if (list !== '') {
        let listing: boolean
        try {
          listing = parseGoBool(list)
        } catch {
          return explainResponse(authError(400), { rule: 'query list', seen: list, expected: "a Go bool: 1, t, T, TRUE, true, True, 0, f, F, FALSE, false, False (send ?list=true)" })
        }
        if (listing) return { operation: 'list', data: {} }
      }
      return { operation: 'read', data: queryData(url) }
    }
    case 'LIST':
      return { operation: 'list', data: queryData(url) }
    case 'POST':
    case 'PUT':
      return { operation: 'update', data: await readRequestData(request) }
    case 'DELETE':
      return { operation: 'delete', data: queryData(url) }
    case 'PATCH': {
      // Read as Go's mime.ParseMediaType reads it: a type it cannot parse (none at all, too) is its error, 400.
      const parsed = parseGoMediaType(request.headers.get('content-type') ?? '')
      if ('error' in parsed) {
        return explainResponse(authError(400, parsed.error), { rule: 'PATCH Content-Type', seen: request.headers.get('content-type') ?? 'none', expected: MERGE_PATCH })
      }
      if (parsed.mediaType !== MERGE_PATCH) return authError(415, MESSAGES.patchContentType(parsed.mediaType))
      return { operation: 'patch', data: await readRequestData(request, true) }
    }
    default:
      return authError(405)
  }
}

/** The 405 of an operation a path does not support: plain on `login`, multierror-wrapped elsewhere. */
export function unsupportedOperation(login: boolean): Response {
  return authError(405, login ? MESSAGES.unsupportedOperation : multiError(MESSAGES.unsupportedOperation))
}
