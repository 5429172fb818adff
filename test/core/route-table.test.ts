import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { compilePathPattern, PatternShapeError, type PathPatternOptions } from '../../src/core/path-pattern.ts'
import { RouteTable, routeTemplate, type RouteRow } from '../../src/core/routing/index.ts'
import { CONTROL_TABLE } from '../../src/features/doppel/index.ts'
import { MANAGEMENT_ROUTES, READ_ROUTES } from '../../src/services/registry/index.ts'
import { ENDPOINTS, API_ROUTES, type MountPoint, isNameSegment } from '../../src/services/cloud-auth/index.ts'

/** The auth method's mounts' rows, as its table under `/v1/` matches a mount-relative path. */
const MOUNT = API_ROUTES.find((row): row is MountPoint => row.reads === 'mount')!
const matchMountRoute = (path: string) => MOUNT.match(path)

describe('the route table', () => {
  const table = new RouteTable([
    { method: 'GET', path: '/a/:id', name: 'read' },
    { method: 'DELETE', path: '/a/:id', name: 'delete' },
    { method: 'GET', path: '/a/:id/x', name: 'x' },
    { method: 'DELETE', path: '/files/*', name: 'files' },
    { path: '/any', name: 'any' },
  ])
  const name = (method: string, path: string) => {
    const match = table.match(method, path)
    return typeof match === 'number' ? match : match.row.name
  }

  it('answers the first row of the method, 405 for a path known with other methods, else 404', () => {
    expect(name('GET', '/a/1')).toBe('read')
    expect(name('DELETE', '/a/1/')).toBe('delete')
    expect(name('POST', '/a/1')).toBe(405)
    expect(name('GET', '/a')).toBe(404)
    expect(name('PATCH', '/any')).toBe('any')
    expect(name('GET', '/files/x')).toBe(405)
  })

  it('captures one-segment parameters raw and the trailing rest, under its name when the row gives one', () => {
    expect(table.match('GET', '/a/%41b/x')).toMatchObject({ params: { id: '%41b' }, rest: '' })
    expect(table.match('DELETE', '/files/a/b%2F/')).toMatchObject({ params: {}, rest: 'a/b%2F/' })
    const named = new RouteTable([{ path: 'list/*', rest: 'tag' }])
    expect(named.match('GET', 'list/')).toMatchObject({ params: { tag: '' }, rest: '' })
  })

  it('decodes parameters when asked; a broken escape matches nothing', () => {
    const decoding = new RouteTable([{ method: 'GET', path: '/m/:name' }], { decode: true })
    expect(decoding.match('GET', '/m/a%2Fb')).toMatchObject({ params: { name: 'a/b' } })
    expect(decoding.match('GET', '/m/%E0%A4%A')).toBe(404)
  })

  it('as written: a trailing slash only where the row has one, and optional there', () => {
    const strict = new RouteTable([{ path: 'role/' }, { path: 'config/client' }], { trailingSlash: 'as-written' })
    expect(strict.match('GET', 'role')).not.toBe(404)
    expect(strict.match('GET', 'role/')).not.toBe(404)
    expect(strict.match('GET', 'config/client')).not.toBe(404)
    expect(strict.match('GET', 'config/client/')).toBe(404)
    expect(() => new RouteTable([{ path: 'a*b' }], { trailingSlash: 'as-written' })).toThrow(PatternShapeError)
  })

  it('tries a path only against the rows its first two segments allow: the answer of every row tried in order', () => {
    /** The rule the table keeps, without its index: every row, in order. */
    const everyRow = (rows: readonly RouteRow[], options: PathPatternOptions, method: string, path: string): RouteRow | 404 | 405 => {
      let known = false
      for (const row of rows) {
        const pattern = compilePathPattern(row.path, options)
        if (row.method !== undefined && row.method !== method) known ||= pattern.test(path)
        else if (pattern.test(path)) return row
      }
      return known ? 405 : 404
    }
    const generated = [{ path: ':first/x' }, { method: 'GET', path: 'x/:id' }, { path: '*' }, { method: 'POST', path: 'x' }, { path: 'x/y/' }, { path: '' }, { path: 'http://h/x' }]
    const tables: [readonly RouteRow[], PathPatternOptions][] = [
      [MOUNT.rows, { trailingSlash: 'as-written', segment: isNameSegment }],
      [API_ROUTES, { trailingSlash: 'as-written' }],
      [MANAGEMENT_ROUTES.rows, {}],
      [READ_ROUTES.rows, {}],
      [CONTROL_TABLE.rows, {}],
      [generated, {}],
    ]
    // Paths of the rows' own segments, their parameters filled, and of other text.
    const segments = [...new Set(tables.flatMap(([rows]) => rows.flatMap((row) => row.path.split('/'))))].map((segment) => (/^:|\*/.test(segment) ? 'v' : segment))
    const path = fc.tuple(fc.boolean(), fc.array(fc.oneof(fc.constantFrom(...segments), fc.constantFrom('', 'x', 'y', 'login', 'a.b', '%41')), { maxLength: 7 }), fc.boolean())
      .map(([lead, parts, slash]) => (lead ? '/' : '') + parts.join('/') + (slash ? '/' : ''))
    fc.assert(
      fc.property(fc.integer({ min: 0, max: tables.length - 1 }), path, fc.constantFrom('GET', 'POST', 'DELETE', 'PATCH', ''), (which, subject, method) => {
        const [rows, options] = tables[which]!
        const match = new RouteTable(rows, options).match(method, subject)
        expect(typeof match === 'number' ? match : match.row, `${method} ${subject}`).toBe(everyRow(rows, options, method, subject))
      }),
      { numRuns: 3000 },
    )
  })

  it('describes rows as OpenAPI templates', () => {
    expect(routeTemplate({ path: '/api/:org/x/:name' })).toEqual({ template: '/api/{org}/x/{name}', params: ['org', 'name'] })
    expect(routeTemplate({ path: 'roletag-denylist/*', rest: 'role_tag' })).toEqual({ template: 'roletag-denylist/{role_tag}', params: ['role_tag'] })
    expect(routeTemplate({ path: 'role/' })).toEqual({ template: 'role/', params: [] })
  })
})

/** The auth method's routes as anchored regular expressions, as they were written before the route rows. */
const NAME = String.raw`\w(?:(?:[\w\-.]+)?\w)?`
const PREVIOUS_AUTH_ROUTES: [string, RegExp][] = [
  ['role/', /^role\/?$/],
  ['roles/', /^roles\/?$/],
  ['role/:role', new RegExp(`^role\\/(?<role>${NAME})$`)],
  ['role/:role/tag', new RegExp(`^role\\/(?<role>${NAME})\\/tag$`)],
  ['config/client', /^config\/client$/],
  ['config/certificate/:cert_name', new RegExp(`^config\\/certificate\\/(?<cert_name>${NAME})$`)],
  ['config/identity', /^config\/identity$/],
  ['config/rotate-root', /^config\/rotate-root$/],
  ['config/sts/:account_id', new RegExp(`^config\\/sts\\/(?<account_id>${NAME})$`)],
  ['config/sts/', /^config\/sts\/?$/],
  ['config/tidy/roletag-denylist', /^config\/tidy\/roletag-denylist$/],
  ['config/tidy/identity-accesslist', /^config\/tidy\/identity-accesslist$/],
  ['config/certificates/', /^config\/certificates\/?$/],
  ['roletag-denylist/', /^roletag-denylist\/?$/],
  ['roletag-denylist/*', /^roletag-denylist\/(?<role_tag>.*)$/],
  ['tidy/roletag-denylist', /^tidy\/roletag-denylist$/],
  ['identity-accesslist/', /^identity-accesslist\/?$/],
  ['identity-accesslist/:instance_id', new RegExp(`^identity-accesslist\\/(?<instance_id>${NAME})$`)],
  ['tidy/identity-accesslist', /^tidy\/identity-accesslist$/],
]

describe("the auth method's route rows", () => {
  it("leave `login` to its own row, which a mount's table tries last", () => {
    const endpoints = new RouteTable(ENDPOINTS, { trailingSlash: 'as-written', segment: isNameSegment })
    expect(endpoints.match('', 'login')).toBe(404)
    expect(matchMountRoute('login')?.row.path).toBe('login')
    expect(matchMountRoute('login/')).toBeUndefined()
  })

  it('are the paths its regular expressions were, in the same order', () => {
    expect(ENDPOINTS.map((row) => row.path)).toEqual(PREVIOUS_AUTH_ROUTES.map(([path]) => path))
  })

  it('match what the regular expressions matched, with the same parameters', () => {
    const piece = fc.constantFrom('role', 'roles', 'config', 'client', 'sts', 'tidy', 'roletag-denylist', 'identity-accesslist', 'tag', 'certificate', 'a', 'a.b', '-x', 'x-', 'é', '_', '.', '')
    const path = fc.tuple(fc.array(piece, { maxLength: 4 }), fc.boolean()).map(([parts, slash]) => parts.join('/') + (slash ? '/' : ''))
    fc.assert(
      fc.property(path, (subject) => {
        const before = PREVIOUS_AUTH_ROUTES.find(([, pattern]) => pattern.test(subject))
        const now = matchMountRoute(subject)
        expect(now?.row.path, subject).toBe(before?.[0])
        if (before) expect(now!.params).toEqual({ ...before[1].exec(subject)!.groups })
      }),
      { numRuns: 3000 },
    )
  })

  it("take a name segment by the real service's rule", () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('a', 'Z', '0', '_', '-', '.', 'é', ' ', '/'), minLength: 1, maxLength: 6 }), (text) => {
        expect(isNameSegment(text, 0, text.length)).toBe(new RegExp(`^${NAME}$`).test(text))
      }),
    )
  })
})
