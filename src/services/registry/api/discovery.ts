import { jsonResponse } from '../../../core/http.ts'
import { REGISTRY_API_PREFIX, V1_PREFIX, V2_PREFIX } from '../urls.ts'

/** Service discovery keys of an HCP Terraform host (docs/reference/registry.md §2.5); `login.v1` is left out on purpose. */
const SERVICES = {
  'modules.v1': `${V1_PREFIX}modules/`,
  'motd.v1': `${REGISTRY_API_PREFIX}terraform/motd`,
  'providers.v1': `${V1_PREFIX}providers/`,
  'state.v2': V2_PREFIX,
  'tfe.v2': V2_PREFIX,
  'tfe.v2.1': V2_PREFIX,
  'tfe.v2.2': V2_PREFIX,
  'versions.v1': 'https://checkpoint-api.hashicorp.com/v1/versions/',
}

/** `GET /.well-known/terraform.json`, plain `application/json` as the CLI demands; paths under `basePath`. */
export function discovery(basePath: string): Response {
  if (basePath === '') return jsonResponse(200, SERVICES)
  return jsonResponse(200, Object.fromEntries(Object.entries(SERVICES).map(([key, value]) => [key, value.startsWith('/') ? basePath + value : value])))
}
