import type { Emulator } from '../core/emulator.ts'
import { NestingTooDeepError, parseJsonBounded } from '../core/bounded-parse.ts'
import { BodyTooLargeError, jsonResponse, readBodyText } from '../core/http.ts'
import type { RegistryFixture } from './glossary.ts'
import { loadRegistryFixture, RegistryFixtureError } from './seed-registry.ts'

const CONTROL_BODY_LIMIT = 8 * 1024 * 1024

/**
 * `/_doppel/registry/*`: the registry's set-up routes for the standalone server. They need no token, like
 * the rest of the control API, and answer in its `{"errors":["…"]}` style.
 */
export async function registryControl(request: Request, emulator: Emulator, url: URL): Promise<Response> {
  const path = url.pathname.replace(/\/+$/, '')
  if (request.method !== 'POST' || (path !== '/_doppel/registry/tokens' && path !== '/_doppel/registry/fixtures')) {
    return jsonResponse(404, { errors: [`unsupported path: ${request.method} ${path}`] })
  }
  let body: unknown
  try {
    body = parseJsonBounded(await readBodyText(request, CONTROL_BODY_LIMIT))
  } catch (error) {
    if (error instanceof NestingTooDeepError) return jsonResponse(400, { errors: [`error parsing JSON: ${error.message}`] })
    if (error instanceof SyntaxError) return jsonResponse(400, { errors: ['error parsing JSON'] })
    if (error instanceof BodyTooLargeError) return jsonResponse(413, { errors: ['request body too large'] })
    throw error
  }
  try {
    if (path === '/_doppel/registry/fixtures') return jsonResponse(201, loadRegistryFixture(emulator, body as RegistryFixture))
    const [token] = loadRegistryFixture(emulator, { tokens: [body as NonNullable<RegistryFixture['tokens']>[number]] }).tokens
    return jsonResponse(201, token)
  } catch (error) {
    if (error instanceof RegistryFixtureError) return jsonResponse(400, { errors: [error.message] })
    throw error
  }
}
