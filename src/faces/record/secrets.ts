/**
 * The one list of what `doppel record` never writes to a scenario: credential-bearing headers, query
 * parameters and body fields. A value a later step needs (a token an answer handed out) is written as a
 * capture; any other is a `${{ vars.<name> }}` read from `DOPPEL_SECRET_<NAME>` at replay. The README's
 * "Secrets are never written" lists the same names.
 */

/** Headers holding the caller's token: the target's own token, or a captured one, stands in for them. */
export const TOKEN_HEADERS = new Set(['x-service-token', 'x-vault-token', 'authorization'])

/** Every header that carries a credential, in requests and answers (token headers included). */
export const SECRET_HEADERS = new Set([
  ...TOKEN_HEADERS,
  'proxy-authorization',
  'cookie',
  'set-cookie',
  'x-amz-security-token',
  'x-api-key',
  'x-auth-token',
  'x-csrf-token',
  'x-vault-wrap-token',
])

/** Query parameters that carry a signature, a token or a key (presigned URLs, token-in-URL clients). */
const SECRET_QUERY = /^(x-amz-signature|x-amz-security-token|x-amz-credential|signature|token|access_token|api_key|apikey|secret)$/i

/**
 * Body fields (JSON at any depth, form-encoded) whose values are secrets, or signed login payloads that
 * cannot be replayed (when the session did not show how they were made, they are not templated by then).
 */
export const SECRET_KEYS =
  /^(secret_key|secret_access_key|access_key|password|client_secret|client_token|session_token|security_token|token|nonce|role_tag|hmac_key|pkcs7|identity|signature|iam_request_headers|iam_request_body|iam_request_url|private_key|api_key)$/i

/** The environment variable a secret var reads, so the secret is given at replay and never on disk. */
export function secretEnvName(name: string): string {
  return `DOPPEL_SECRET_${name.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`
}

/** A var's name for a secret at `name` (a field, header or query parameter). */
export function secretVarName(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9_]/g, '_')
}

/**
 * `a=1&token=…` with each secret parameter's value replaced by `replace(name, value)`; the rest, and the
 * order, as recorded. Used for query strings and form-encoded bodies alike.
 */
export function redactPairs(pairs: string, keep: (text: string) => string, replace: (name: string, value: string) => string): string {
  return pairs
    .split('&')
    .map((pair) => {
      const at = pair.indexOf('=')
      const name = decodeForm(at === -1 ? pair : pair.slice(0, at))
      if (at === -1 || !isSecretName(name)) return keep(pair)
      return `${keep(pair.slice(0, at + 1))}${replace(name, decodeForm(pair.slice(at + 1)))}`
    })
    .join('&')
}

/** Whether a URL's query (or a form body) holds a secret parameter. */
export function hasSecretPair(url: string): boolean {
  const query = url.includes('?') ? url.slice(url.indexOf('?') + 1) : ''
  return query.split('&').some((pair) => isSecretName(decodeForm(pair.split('=')[0]!)))
}

function isSecretName(name: string): boolean {
  return SECRET_QUERY.test(name) || SECRET_KEYS.test(name)
}

function decodeForm(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '))
  } catch {
    return text
  }
}
