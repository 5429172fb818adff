import { jsonResponse } from '../../../core/http.ts'

/** Service discovery keys of an HCP Terraform host (docs/reference/registry.md §2.5); `login.v1` is left out on purpose. */
const SERVICES = {
  'modules.v1': '/api/registry/v1/modules/',
  'motd.v1': '/api/terraform/motd',
  'providers.v1': '/api/registry/v1/providers/',
  'state.v2': '/api/v2/',
  'tfe.v2': '/api/v2/',
  'tfe.v2.1': '/api/v2/',
  'tfe.v2.2': '/api/v2/',
  'versions.v1': 'https://checkpoint-api.hashicorp.com/v1/versions/',
}

/** `GET /.well-known/terraform.json`, plain `application/json` as the CLI demands; paths under `basePath`. */
export function discovery(basePath: string): Response {
  if (basePath === '') return jsonResponse(200, SERVICES)
  return jsonResponse(200, Object.fromEntries(Object.entries(SERVICES).map(([key, value]) => [key, value.startsWith('/') ? basePath + value : value])))
}
