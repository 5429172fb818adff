import { explainResponse, explanationOf } from '../../../core/explanation.ts'
/**
 * One request on a mount's path: existence check, field conversion, handler, response shape
 * (docs/reference/cloud-auth.md §1.5, docs/reference/cloud-auth.md §1.6). Handlers work on copies and store last, so a refused write changes nothing.
 */
import type { RequestContext } from '../../../core/glossary.ts'
import { authError, authResponse, noContent } from '../envelope.ts'
import { AuthRefusal } from '../auth-refusal.ts'
import { FieldError, Fields, unknownFields, type FieldSchema } from '../fields/index.ts'
import { MESSAGES } from '../auth-messages.ts'
import type { AuthState } from '../state.ts'
import { authProfile } from '../auth-profile.ts'
import { endpointFields, type Endpoint, type Operation, type OperationResult } from './endpoint.ts'
import { unsupportedOperation } from './http-operation.ts'

/** Answers one request on a mount's path with the endpoint the mount's table matched, and its parameters. */
export async function runEndpoint(
  context: RequestContext,
  state: AuthState,
  endpoint: Endpoint,
  path: string,
  params: Record<string, string>,
  requested: Operation,
  data: Record<string, unknown>,
): Promise<Response> {
  if (!endpoint.operations[requested]) return unsupportedOperation(false)

  const raw: Record<string, unknown> = { ...data }
  const replaced: string[] = []
  for (const [name, value] of Object.entries(params)) {
    if (raw[name] !== undefined && raw[name] !== null) replaced.push(name)
    raw[name] = value
  }
  const checksExistence = endpoint.exists !== undefined && requested === 'update'
  const schema = endpointFields(endpoint, authProfile(context.profile))
  const fields = convertFields(schema, raw, checksExistence)
  const operation: Operation = checksExistence && !endpoint.exists!(state, params) ? 'create' : requested
  const handler = endpoint.operations[operation]
  if (!handler) return unsupportedOperation(false)

  const result = await handler({ context, state, operation, fields, params })
  return shape(context, path, operation, result, {
    ignored: unknownFields(schema, data),
    replaced: replaced.sort(),
  })
}

/**
 * The request's fields by the route's schema. A conversion error is thrown for the edge to answer; on a
 * path with an existence check the real service reports it bare, without `Field validation failed: ` (docs/reference/cloud-auth.md §1.6).
 */
function convertFields(schema: FieldSchema, raw: Record<string, unknown>, checksExistence: boolean): Fields {
  try {
    return new Fields(schema, raw)
  } catch (error) {
    throw checksExistence && error instanceof FieldError ? new AuthRefusal(error.message, 400, error.code).explain(explanationOf(error, 'field')) : error
  }
}

function shape(
  context: RequestContext,
  path: string,
  operation: Operation,
  result: OperationResult | undefined,
  parameters: { ignored: string[]; replaced: string[] },
): Response {
  if (!result) {
    if (operation !== 'read' && operation !== 'list') return noContent()
    // The real service's answer to a read of nothing is a bare 404 with no error text.
    return explainResponse(authError(404), { rule: 'stored entry', seen: `nothing stored at ${path} on the mount`, hint: `write it first, or ${operation === 'list' ? 'list' : 'read'} another path` })
  }
  const warnings = [...(result.warnings ?? [])]
  // The tidy endpoints' 202 is a body the real service renders in the method, which these warnings miss.
  const rendered = result.status === 202
  if (!rendered) {
    if (parameters.ignored.length > 0) warnings.push(MESSAGES.ignoredParameters(parameters.ignored))
    if (parameters.replaced.length > 0) warnings.push(MESSAGES.replacedParameters(parameters.replaced))
  }
  return authResponse(context, { data: result.data ?? null, warnings, status: result.status ?? 200, rendered })
}
