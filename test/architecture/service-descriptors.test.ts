// The services are listed once (features/doppel/services.ts, one descriptor each): the router, the journal,
// the control table, the snapshot document and the OpenAPI document each read that list, and nothing else.
import { describe, expect, it } from 'vitest'
import { getProfile } from '../../src/core/profile.ts'
import { tokenSchemes } from '../../src/core/openapi-schema.ts'
import { CONTROL_TABLE, SERVICES } from '../../src/features/doppel/index.ts'
import { openApiDocument } from '../../src/features/openapi/index.ts'
import { domainCodecs } from '../../src/features/snapshot/index.ts'
import { createDoppel } from '../../src/index.ts'

const concrete = (path: string) => path.replace(/\{[a-z_]+\}/g, 'x1').replace(/:[A-Za-z_]+/g, 'x1').replace(/\*$/, 'x1')

describe('the one list of services', () => {
  it('names each service once, with the control API last (the router asks it after the services’ own paths under /_doppel/)', () => {
    const names = SERVICES.map((service) => service.name)
    expect(new Set(names).size).toBe(names.length)
    expect(names.at(-1)).toBe('control')
    for (const service of SERVICES) expect(service.urls.name).toBe(service.name)
  })

  it('routes and journals a path under the service whose descriptor owns it', async () => {
    const doppel = createDoppel()
    const profile = getProfile(undefined)
    const schemes = Object.keys(tokenSchemes(profile.tokenHeaders))
    const paths: { service: string; path: string }[] = [{ service: 'control', path: '/_doppel/health' }]
    for (const service of SERVICES) {
      const description = await service.openApi?.()
      for (const path of Object.keys(description?.paths(profile, schemes) ?? {}).slice(0, 3)) paths.push({ service: service.name, path: concrete(path) })
    }
    expect(new Set(paths.map(({ service }) => service)).size).toBeGreaterThanOrEqual(3)
    for (const { path } of paths) await doppel.fetch(`http://doppel.test${path}`)
    expect(doppel.journal.entries().map((entry) => entry.service)).toEqual(paths.map(({ service }) => service))
    // A path none owns: the hint says where each service answers.
    const hint = doppel.explain(await doppel.fetch('http://doppel.test/nowhere'))?.hint
    for (const service of SERVICES.filter((entry) => entry.where)) expect(hint).toContain(service.where)
    expect(SERVICES.filter((entry) => entry.where).length).toBe(3)
  })

  it('answers an injected fault with the body of the service that owns the path', async () => {
    for (const service of SERVICES.filter((entry) => entry.openApi)) {
      const doppel = createDoppel()
      const description = await service.openApi!()
      const path = concrete(Object.keys(description.paths(getProfile(undefined), [])).at(-1)!)
      doppel.faults.add({ path, status: 502 })
      const response = await doppel.fetch(`http://doppel.test${path}`)
      expect(await response.text(), service.name).toBe(await service.fault(502).text())
    }
  })

  it('puts every descriptor’s set-up rows in the control table, and every codec in the snapshot document', () => {
    for (const service of SERVICES) for (const row of service.controlRoutes) expect(CONTROL_TABLE.rows).toContain(row)
    expect(domainCodecs().map((codec) => codec.name)).toEqual([...SERVICES.flatMap((service) => service.codecs.map((codec) => codec.name)), 'fixture-faker'])
    expect(Object.keys(createDoppel().snapshot().domains).every((name) => domainCodecs().some((codec) => codec.name === name))).toBe(true)
  })

  it('describes in the OpenAPI document each service that describes itself, under its name', async () => {
    const document = (await openApiDocument()) as { tags: { name: string }[]; paths: Record<string, Record<string, { tags?: string[] }>> }
    const described = SERVICES.filter((service) => service.openApi)
    expect(document.tags).toEqual(described.map(({ name }) => ({ name })))
    const schemes = Object.keys(tokenSchemes(getProfile(undefined).tokenHeaders))
    for (const service of described) {
      const paths = Object.keys((await service.openApi!()).paths(getProfile(undefined), schemes))
      expect(paths.length).toBeGreaterThan(0)
      for (const path of paths) expect(Object.values(document.paths[path]!).find((operation) => operation.tags)?.tags, path).toEqual([service.name])
    }
  })
})
