import { readdirSync, readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { createDoppel } from '../../src/features/doppel/index.ts'

// The dashboard's files through the in-process face: any server or MSW handler built on doppel.fetch serves it.
const doppel = createDoppel()
const get = (path: string, init?: RequestInit) => doppel.fetch(`http://doppel.test${path}`, init)
const ASSETS = new URL('../../src/features/dashboard/assets/', import.meta.url)

describe('dashboard files', () => {
  it('serves the page, its script, stylesheet and icon with a same-origin-only CSP', async () => {
    for (const [path, type] of [
      ['/_doppel/ui/', 'text/html; charset=utf-8'],
      ['/_doppel/ui/index.html', 'text/html; charset=utf-8'],
      ['/_doppel/ui/app.js', 'text/javascript; charset=utf-8'],
      ['/_doppel/ui/journal-view.js', 'text/javascript; charset=utf-8'],
      ['/_doppel/ui/app.css', 'text/css; charset=utf-8'],
      ['/_doppel/ui/icon.svg', 'image/svg+xml'],
    ] as const) {
      const res = await get(path)
      expect(res.status, path).toBe(200)
      expect(res.headers.get('content-type'), path).toBe(type)
      expect(res.headers.get('content-security-policy'), path).toBe("default-src 'self'; frame-ancestors 'none'")
      expect(res.headers.get('x-content-type-options'), path).toBe('nosniff')
      expect((await res.text()).length, path).toBeGreaterThan(100)
    }
  })

  it('serves every file of the assets folder, so no module the page imports is left out', async () => {
    for (const name of readdirSync(ASSETS)) expect((await get(`/_doppel/ui/${name}`)).status, name).toBe(200)
  })

  it('redirects /_doppel/ui to the slash form relatively, so a tenant prefix survives', async () => {
    const res = await get('/_doppel/ui', { redirect: 'manual' })
    expect(res.status).toBe(308)
    expect(res.headers.get('location')).toBe('ui/')
    expect(new URL(res.headers.get('location')!, 'http://h/t/job-1/_doppel/ui').pathname).toBe('/t/job-1/_doppel/ui/')
  })

  it('serves nothing else from the assets folder, and only reads', async () => {
    for (const path of ['/_doppel/ui/nope.js', '/_doppel/ui/%2e%2e%2fdashboard-route.ts', '/_doppel/ui/assets/app.js', '/_doppel/ui/app.js/']) {
      const res = await get(path)
      expect(res.status, path).toBe(404)
      expect((await res.json()).errors[0], path).toMatch(/^no such dashboard file: /)
    }
    expect((await get('/_doppel/ui/', { method: 'POST', body: '{}' })).status).toBe(405)
  })

  it('loads nothing from another origin and calls only the control API', () => {
    const html = readFileSync(new URL('index.html', ASSETS), 'utf8')
    const script = readdirSync(ASSETS).filter((name) => name.endsWith('.js')).map((name) => readFileSync(new URL(name, ASSETS), 'utf8')).join('\n')
    const css = readFileSync(new URL('app.css', ASSETS), 'utf8')
    for (const text of [html, script, css]) expect(text).not.toMatch(/(https?:)?\/\/[a-z0-9.-]+\.[a-z]{2,}\//i)
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/)
    expect(html).not.toMatch(/\son[a-z]+=/)
    const calls = [...script.matchAll(/\bapi\(\s*[`'"]([a-z]+)/g)].map((m) => m[1])
    expect(new Set(calls)).toEqual(new Set(['state', 'journal', 'clock', 'faults', 'cloud', 'tenants', 'fixtures', 'reset']))
    expect(script).not.toMatch(/innerHTML|outerHTML|insertAdjacentHTML|document\.write|eval\(/)
  })
})
