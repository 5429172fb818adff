/**
 * `config/tidy/identity-accesslist` and `config/tidy/roletag-denylist` (docs/reference/cloud-auth.md §3.6): the tidy
 * safety buffer and the periodic-tidy switch of each list.
 */
import type { TidyConfig, TidyConfigs } from '../glossary.ts'
import { DEFAULT_SAFETY_BUFFER } from '../limits.ts'
import type { Endpoint, OperationInput } from '../routing/endpoint.ts'

/**
 * @note Both lists default to 72h here, as the spec states. The real service defaults the deny list's
 * setting to 180 days (15552000 s); see deviations.ts.
 */
const CREATE_DEFAULTS: TidyConfig = { safety_buffer: DEFAULT_SAFETY_BUFFER, disable_periodic_tidy: false }

function tidyConfigEndpoint(path: string, list: keyof TidyConfigs): Endpoint {
  const write = ({ state, fields }: OperationInput): undefined => {
    const config: TidyConfig = { ...(state.tidyConfig[list] ?? CREATE_DEFAULTS) }
    const buffer = fields.duration('safety_buffer')
    if (buffer !== undefined) config.safety_buffer = buffer
    const disable = fields.bool('disable_periodic_tidy')
    if (disable !== undefined) config.disable_periodic_tidy = disable
    state.tidyConfig = { ...state.tidyConfig, [list]: config }
    return undefined
  }
  return {
    path: `config/tidy/${path}`,
    fields: { safety_buffer: 'duration', disable_periodic_tidy: 'bool' },
    exists: (state) => state.tidyConfig[list] !== undefined,
    operations: {
      read: ({ state }) => {
        const config = state.tidyConfig[list]
        return config && { data: { safety_buffer: config.safety_buffer, disable_periodic_tidy: config.disable_periodic_tidy } }
      },
      create: write,
      update: write,
      delete: ({ state }) => {
        const { [list]: _dropped, ...others } = state.tidyConfig
        state.tidyConfig = others
        return undefined
      },
    },
  }
}

export const configTidyDenyList = tidyConfigEndpoint('roletag-denylist', 'denyList')
export const configTidyAccessList = tidyConfigEndpoint('identity-accesslist', 'accessList')
