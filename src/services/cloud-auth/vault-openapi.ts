/**
 * `GET /v1/sys/internal/specs/openapi` where the profile serves it (vault): Vault's own description endpoint, answered
 * with the auth method's paths on the profile's mount (`?generic_mount_paths=true` → `{aws_mount_path}`).
 */
import { goJsonText } from '../../core/go/go-json-text.ts'
import { authError, multiError } from './envelope.ts'
import { toBoolField } from './fields/index.ts'
import { MESSAGES } from './auth-messages.ts'
import type { RequestRoute } from './routing/api-route.ts'
import { authProfile } from './auth-profile.ts'

/** Vault's document, relative to `/v1/`: unauthenticated, as Vault's is. */
export const VAULT_OPENAPI_ROUTE: RequestRoute = {
  path: 'sys/internal/specs/openapi',
  reads: 'request',
  token: 'none',
  profile: (profile) => authProfile(profile).vaultOpenApi,
  describe: { get: { summary: "Vault's OpenAPI document of the auth method", answers: { '200': 'The document' }, bare: true } },
  run: ({ request, url }) => vaultOpenApi(request, url),
}

async function vaultOpenApi(request: Request, url: URL): Promise<Response> {
  if (request.method !== 'GET') return authError(405, multiError(MESSAGES.unsupportedOperation))
  const generic = toBoolField(url.searchParams.get('generic_mount_paths') ?? undefined, 'generic_mount_paths')
  // The generator is imported on first use.
  const { vaultOpenApiDocument } = await import('./openapi/vault-document.ts')
  return new Response(goJsonText(vaultOpenApiDocument({ genericMountPaths: generic })) + '\n', {
    status: 200,
    headers: { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' },
  })
}
