import { describe, expect, it } from 'vitest'
import { CONTROL_TABLE, createDoppel, classifyRequest, type Surface } from '../../src/features/doppel/index.ts'
import { AWS_FACES } from '../../src/services/fake-cloud/index.ts'

const routeRequest = (url: URL, listener: Surface) => classifyRequest({ listener, url, authorization: () => undefined })
const concrete = (path: string) => path.replace(/:[A-Za-z_]+/g, 'x1').replace(/\*$/, 'x1')

describe('the control table and the services’ URLs', () => {
  it('routes every control row to the control API, journaled under the service whose URLs hold it', () => {
    for (const row of CONTROL_TABLE.rows) {
      const route = routeRequest(new URL(`http://doppel.test${concrete(row.path)}`), 'main')
      expect(route?.answer, row.path).toBe('control')
      const owner = row.path.startsWith('/_doppel/cloud/') ? 'fake-cloud' : row.path.startsWith('/_doppel/registry/') ? 'registry' : 'control'
      expect(route?.journal, row.path).toBe(owner)
    }
  })

  it('leaves the fake cloud’s AWS faces to the fake cloud, and its AWS host names whatever the path', () => {
    for (const face of Object.keys(AWS_FACES)) {
      expect(routeRequest(new URL(`http://doppel.test/_doppel/cloud/${face}/x`), 'main')).toMatchObject({ journal: 'fake-cloud', answer: 'fake-cloud' })
    }
    expect(routeRequest(new URL('http://sts.amazonaws.com/_doppel/health'), 'main')).toMatchObject({ journal: 'fake-cloud', answer: 'fake-cloud' })
    expect(routeRequest(new URL('http://doppel.test/v1/auth/cloud/role/r'), 'cloud')).toMatchObject({ journal: 'fake-cloud', answer: 'fake-cloud' })
  })

  it('journals a set-up call under the service it sets up', async () => {
    const doppel = createDoppel()
    await doppel.fetch('http://doppel.test/_doppel/cloud/instances', { method: 'POST', body: '{}' })
    await doppel.fetch('http://doppel.test/_doppel/registry/tokens', { method: 'POST', body: '{}' })
    await doppel.fetch('http://doppel.test/_doppel/health')
    await doppel.fetch('http://doppel.test/nowhere')
    expect(doppel.journal.entries().map((entry) => [entry.service, entry.status])).toEqual([
      ['fake-cloud', 201],
      ['registry', 400],
      ['control', 200],
      ['none', 404],
    ])
  })
})
