import { mediaType } from '../../core/http.ts'
import { decodeQueryPart } from './sigv4/canonical-request.ts'

/** The parameters of a query-protocol call: the URL query (auth parameters left out) and a form body. */
export type QueryParams = Map<string, string>

/** Reads `Action`, `Version` and the operation's parameters from the query and, on POST, the form body. */
export function readQueryParams(request: Request, url: URL, body: Uint8Array): QueryParams {
  const params: QueryParams = new Map()
  addForm(params, url.search.slice(1), true)
  const type = mediaType(request)
  if (request.method === 'POST' && (type === '' || type === 'application/x-www-form-urlencoded')) {
    addForm(params, new TextDecoder().decode(body), false)
  }
  return params
}

function addForm(params: QueryParams, text: string, skipAuth: boolean): void {
  for (const part of text.split('&')) {
    if (part === '') continue
    const eq = part.indexOf('=')
    const name = decodeQueryPart(eq < 0 ? part : part.slice(0, eq))
    if (skipAuth && name.startsWith('X-Amz-')) continue
    params.set(name, decodeQueryPart(eq < 0 ? '' : part.slice(eq + 1)))
  }
}

/** `<prefix>.1`, `<prefix>.2`, … in index order (AWS's flattened lists; gaps are ignored). */
export function listParam(params: QueryParams, prefix: string): string[] {
  return indexed(params, prefix).map(([, value]) => value)
}

/** `Filter.N.Name` with its `Filter.N.Value.M` values. */
export function filterParams(params: QueryParams): { name: string; values: string[] }[] {
  const filters: { name: string; values: string[] }[] = []
  for (const [index, name] of indexed(params, 'Filter', '.Name')) {
    filters.push({ name, values: listParam(params, `Filter.${index}.Value`) })
  }
  return filters
}

function indexed(params: QueryParams, prefix: string, suffix = ''): [number, string][] {
  const out: [number, string][] = []
  const pattern = new RegExp(`^${prefix.replace(/\./g, '\\.')}\\.(\\d+)${suffix.replace(/\./g, '\\.')}$`)
  for (const [name, value] of params) {
    const match = pattern.exec(name)
    if (match) out.push([Number(match[1]), value])
  }
  return out.sort(([a], [b]) => a - b)
}
