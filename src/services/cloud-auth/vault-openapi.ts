/**
 * `GET /v1/sys/internal/specs/openapi` where the profile serves it (vault): Vault's own description endpoint, answered
 * with the auth method's paths on the profile's mount (`?generic_mount_paths=true` → `{aws_mount_path}`).
 */
import type { RequestContext } from '../../core/glossary.ts'
import { authError, multiError } from './envelope.ts'
import { toBoolField } from './fields/index.ts'
import { MESSAGES } from './auth-messages.ts'
import { authProfile } from './auth-profile.ts'

export const VAULT_OPENAPI_PATH = 'sys/internal/specs/openapi'

export async function vaultOpenApi(request: Request, url: URL, context: RequestContext): Promise<Response | undefined> {
  if (!authProfile(context.profile).vaultOpenApi || !context.vaultOpenApi) return undefined
  if (request.method !== 'GET') return authError(405, multiError(MESSAGES.unsupportedOperation))
  const generic = toBoolField(url.searchParams.get('generic_mount_paths') ?? undefined, 'generic_mount_paths')
  return new Response(JSON.stringify(await context.vaultOpenApi({ genericMountPaths: generic })) + '\n', {
    status: 200,
    headers: { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' },
  })
}
