// Start-up loads only what an emulator needs at once (issue 37: start-up ≤ 1.5× importing msw): the
// services' own code, the fake cloud's Query API, faker and the YAML parser load on first use. Counted in
// a fresh process, as `npm run bench -- startup` times it.
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))

const PROBE = `
import { registerHooks } from 'node:module'
const loaded = []
registerHooks({ load(url, context, next) { loaded.push(url); return next(url, context) } })
const { createDoppel } = await import('./src/index.ts')
const { createHandlers } = await import('./src/faces/msw/index.ts')
const doppel = createDoppel({ seed: 1 })
doppel.cloud.createInstance({})
createHandlers(doppel)
const atStart = loaded.splice(0)
const response = await doppel.fetch('http://doppel.test/_doppel/cloud/sts/?Action=GetCallerIdentity&Version=2011-06-15')
process.stdout.write(JSON.stringify({ atStart, firstRequest: loaded, status: response.status }))
`

const unit = (url: string) => url.replace(/^.*?\/(src|node_modules)\//, '$1/')

describe('start-up', () => {
  const result = spawnSync(process.execPath, ['--input-type=module', '-e', PROBE], { cwd: ROOT, encoding: 'utf8' })
  const { atStart, firstRequest, status } = JSON.parse(result.stdout || '{}') as { atStart: string[]; firstRequest: string[]; status: number }

  it('loads neither faker, the YAML parser, the services’ own code nor the fake cloud’s Query API', () => {
    expect(result.stderr).toBe('')
    const modules = atStart.map(unit)
    expect(modules).toContain('src/services/fake-cloud/fake-cloud-api.ts')
    for (const later of ['node_modules/@faker-js/', 'node_modules/yaml/', 'src/services/cloud-auth/cloud-auth-service.ts', 'src/services/registry/registry-service.ts', 'src/services/fake-cloud/fake-cloud-service.ts', 'src/services/fake-cloud/query-api.ts', 'src/services/fake-cloud/sigv4/verify-sigv4.ts']) {
      expect(modules.filter((module) => module.startsWith(later)), later).toEqual([])
    }
  })

  it('loads the fake cloud’s Query API on its first request, which answers as before (unsigned: 403)', () => {
    expect(firstRequest.map(unit)).toContain('src/services/fake-cloud/query-api.ts')
    expect(status).toBe(403)
  })
})
