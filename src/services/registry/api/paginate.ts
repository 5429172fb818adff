/** JSON:API pagination of v2 lists: `page[number]` (default 1), `page[size]` (default 20, at most 100). */

export interface Page<T> {
  items: T[]
  links: Record<'self' | 'first' | 'prev' | 'next' | 'last', string | null>
  pagination: Record<string, number | null>
}

const DEFAULT_SIZE = 20
const MAX_SIZE = 100

function positiveInteger(value: string | null): number | undefined {
  if (value === null || !/^\d{1,9}$/.test(value)) return undefined
  const n = Number(value)
  return n >= 1 ? n : undefined
}

/**
 * One page of `items`, with absolute `links` built from the request URL (under `basePath`, a tenant's
 * prefix) and `meta.pagination`.
 */
export function paginate<T>(items: readonly T[], url: URL, basePath = ''): Page<T> {
  const size = Math.min(positiveInteger(url.searchParams.get('page[size]')) ?? DEFAULT_SIZE, MAX_SIZE)
  const current = positiveInteger(url.searchParams.get('page[number]')) ?? 1
  const totalPages = Math.max(1, Math.ceil(items.length / size))
  const link = (page: number) => {
    const target = new URL(url)
    target.pathname = basePath + url.pathname
    target.searchParams.set('page[number]', String(page))
    target.searchParams.set('page[size]', String(size))
    return target.toString()
  }
  const prev = current > 1 ? Math.min(current - 1, totalPages) : null
  const next = current < totalPages ? current + 1 : null
  return {
    items: items.slice((current - 1) * size, current * size),
    links: { self: link(current), first: link(1), prev: prev === null ? null : link(prev), next: next === null ? null : link(next), last: link(totalPages) },
    pagination: {
      'current-page': current,
      'page-size': size,
      'prev-page': prev,
      'next-page': next,
      'total-pages': totalPages,
      'total-count': items.length,
    },
  }
}
