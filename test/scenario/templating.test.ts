import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { formatJsonPath, JsonPathError, parseJsonPath, queryJsonPath, collectPaths, parseExpression, render, TemplateError, type Scope } from '../../src/faces/scenario/shared.ts'
const scope: Scope = {
  vars: { role: 'web', count: 3, nested: { list: ['a', 'b'] }, empty: '' },
  steps: { 'create-role': { id: 'r-1', body: { x: 1 } }, login: { token: 'hvs.abc' } },
  target: { mount: 'cloud', token: 'root' },
  run: { id: 'r1a2b3' },
  env: { HOME: '/home/u' },
}

describe('templates', () => {
  it('a value that is exactly one expression keeps its type', () => {
    expect(render('${{ vars.count }}', scope)).toBe(3)
    expect(render('  ${{ vars.nested }}  ', scope)).toEqual({ list: ['a', 'b'] })
    expect(render('${{ steps.create-role.body }}', scope)).toEqual({ x: 1 })
  })

  it('expressions inside longer text are stringified', () => {
    expect(render('/v1/auth/${{ target.mount }}/role/${{ vars.role }}-${{ run.id }}', scope)).toBe('/v1/auth/cloud/role/web-r1a2b3')
    expect(render('n=${{ vars.count }} o=${{ steps.create-role.body }}', scope)).toBe('n=3 o={"x":1}')
  })

  it('resolves inside lists, mappings and mapping keys, without touching the input', () => {
    const input = { roles: { '${{ vars.role }}': { token: '${{ target.token }}' } }, list: ['${{ env.HOME }}'] }
    const copy = structuredClone(input)
    expect(render(input, scope)).toEqual({ roles: { web: { token: 'root' } }, list: ['/home/u'] })
    expect(input).toEqual(copy)
  })

  it('supports index segments and quoted names', () => {
    expect(render('${{ vars.nested.list[1] }}', scope)).toBe('b')
    expect(render('${{ vars.nested.list.0 }}', scope)).toBe('a')
    expect(render("${{ vars['role'] }}", scope)).toBe('web')
  })

  it('|| falls back past undefined, null and empty text', () => {
    expect(render("${{ env.NOPE || 'fallback' }}", scope)).toBe('fallback')
    expect(render('${{ vars.empty || vars.role }}', scope)).toBe('web')
    expect(render('${{ env.NOPE || 42 }}', scope)).toBe(42)
  })

  it('an undefined value is an error naming the path', () => {
    expect(() => render('${{ steps.login.missing }}', scope)).toThrow(new TemplateError('steps.login.missing is not defined'))
    expect(() => render('${{ env.A || env.B }}', scope)).toThrow('env.A || env.B are not defined')
  })

  it('syntax errors say what is wrong', () => {
    expect(() => parseExpression(' ')).toThrow('invalid expression "${{ }}": it is empty')
    expect(() => parseExpression('vars.a ||')).toThrow('nothing after "||"')
    expect(() => parseExpression('vars')).toThrow('"vars" needs a name after it')
    expect(() => parseExpression('vars.a + 1')).toThrow('unexpected "+"')
    expect(() => parseExpression('secrets.x')).toThrow('unknown name "secrets"')
  })

  it('collects the paths a value refers to', () => {
    expect(collectPaths({ a: 'x${{ steps.a.b }}', b: ['${{ vars.c || run.id }}'] }).map((p) => p.text)).toEqual(['steps.a.b', 'vars.c', 'run.id'])
  })

  it('text without templates renders to itself (property)', () => {
    fc.assert(
      fc.property(fc.string().filter((s) => !s.includes('${{')), (text) => {
        expect(render(text, scope)).toBe(text)
      }),
    )
  })

  it('parsing never fails with anything but a TemplateError (property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), (source) => {
        try {
          parseExpression(source)
        } catch (error) {
          expect(error).toBeInstanceOf(TemplateError)
        }
      }),
      { numRuns: 500 },
    )
  })
})

describe('JSONPath subset', () => {
  const body = { auth: { client_token: 'hvs.x', policies: ['default', 'web'] }, 'odd key': { 'a.b': 1 }, list: [{ id: 1 }, { id: 2 }] }

  it('parses and queries names, indexes from either end, and quoted names', () => {
    expect(queryJsonPath(body, parseJsonPath('$.auth.client_token'))).toEqual({ found: true, value: 'hvs.x' })
    expect(queryJsonPath(body, parseJsonPath('$.auth.policies[1]'))).toEqual({ found: true, value: 'web' })
    expect(queryJsonPath(body, parseJsonPath('$.list[-1].id'))).toEqual({ found: true, value: 2 })
    expect(queryJsonPath(body, parseJsonPath("$['odd key']['a.b']"))).toEqual({ found: true, value: 1 })
    expect(queryJsonPath(body, parseJsonPath('$'))).toEqual({ found: true, value: body })
  })

  it('reports missing values as not found rather than undefined', () => {
    expect(queryJsonPath(body, parseJsonPath('$.auth.nope'))).toEqual({ found: false })
    expect(queryJsonPath(body, parseJsonPath('$.list[5]'))).toEqual({ found: false })
    expect(queryJsonPath(body, parseJsonPath('$.auth[0]'))).toEqual({ found: false })
    expect(queryJsonPath({ a: null }, parseJsonPath('$.a'))).toEqual({ found: true, value: null })
  })

  it('refuses what it does not implement', () => {
    expect(() => parseJsonPath('auth.x')).toThrow(new JsonPathError('invalid JSONPath "auth.x": must start with "$"'))
    expect(() => parseJsonPath('$..x')).toThrow('unexpected "." at position 1')
    expect(() => parseJsonPath('$.a[*]')).toThrow('unexpected "[" at position 3')
  })

  it('formats back to what it parses (property)', () => {
    const segment = fc.oneof(fc.string({ minLength: 1, maxLength: 8 }), fc.integer({ min: 0, max: 50 }))
    fc.assert(
      fc.property(fc.array(segment, { maxLength: 5 }), (path) => {
        expect(parseJsonPath(formatJsonPath(path))).toEqual(path)
      }),
    )
  })
})
