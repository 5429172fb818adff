/** The naming rules of the registry (docs/reference/registry.md §3.1), shared by the API and fixtures. */

/** Organisation names: letters, digits, `-` and `_`. */
export const ORGANIZATION_NAME = /^[A-Za-z0-9_-]{1,64}$/
/** Module names: alphanumerics, `-` and `_` inside, at most 64 characters. */
export const MODULE_NAME = /^[0-9A-Za-z](?:[0-9A-Za-z_-]{0,62}[0-9A-Za-z])?$/
/** Provider names: lowercase alphanumerics, at most 64 characters. */
export const PROVIDER_NAME = /^[0-9a-z]{1,64}$/
