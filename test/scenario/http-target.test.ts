import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDoppel } from '../../src/features/doppel/index.ts'
import { main } from '../../src/cli/main.ts'
import { closedPort } from '../support/closed-port.ts'
import { createHttpTarget, createTarget, findScenarioFiles, loadScenarioFile, runScenarios, TargetUnreachableError } from '../../src/faces/scenario/index.ts'
import { createDoppelServer, listen, type RunningServer } from '../../src/faces/server/index.ts'
import { plainHttpTarget, run, scenarioText, verdicts } from './helpers.ts'

/** The one test here that uses sockets: a real `doppel serve` listener on a free port. */
describe('http target against doppel serve', () => {
  let server: RunningServer
  const doppel = createDoppel({ seed: 11 })

  beforeAll(async () => {
    server = await listen(createDoppelServer(doppel), 0, '127.0.0.1')
  })
  afterAll(async () => {
    await server.close()
  })

  it('is detected through /_doppel/health and gets every capability, with the root token', async () => {
    const target = await createTarget(server.url)
    expect(target.info).toMatchObject({ kind: 'http', token: 'root', baseUrl: server.url, registryUrl: server.url, mount: 'cloud' })
    expect([...target.capabilities].sort()).toEqual(['auth', 'clock', 'fake-cloud', 'faults', 'fixtures', 'inspect', 'mounts', 'registry', 'reset'])
  })

  it('runs the shipped scenarios with the same verdicts as in process, each on a fresh mount', async () => {
    const scenarios = findScenarioFiles(['scenarios'], process.cwd()).map((file) => loadScenarioFile(file))
    const result = await runScenarios(scenarios, { target: await createTarget(server.url), jobs: 2, runId: 'iso' })
    const failures = result.scenarios.flatMap((s) => s.steps.filter((step) => step.verdict !== 'passed').map((step) => `${s.file}: ${step.title}: ${step.reason ?? JSON.stringify(step.mismatches)}`))
    expect(failures).toEqual([])
    expect(result.passed).toBe(scenarios.length)
    const mounts = await (await fetch(`${server.url}/v1/sys/auth`, { headers: { 'X-Service-Token': 'root' } })).json()
    const sys = doppel.journal.entries().filter((e) => new URL(e.url).pathname.startsWith('/v1/sys/auth/'))
    const calls = sys.map((e) => `${e.method} ${new URL(e.url).pathname} ${e.status}`).sort()
    expect(calls).toContain('POST /v1/sys/auth/cloud-iso2 204')
    expect(calls).toContain('DELETE /v1/sys/auth/cloud-iso2 204')
    // Every scenario's own mount was dropped again.
    expect(Object.keys((mounts as { data: object }).data).filter((path) => path.startsWith('cloud'))).toEqual(['cloud/'])
  })

  it('drives the clock, faults, reset, inspect and the fake cloud through the control API', async () => {
    const target = await createTarget(server.url)
    const result = await run(target, [
      scenarioText('control', [
        'steps:',
        '  - clock.set: "2030-01-01T00:00:00Z"',
        '  - id: clock',
        '    clock.advance: 1h',
        '    expect: { body: { now: { $regex: "^2030-01-01T01:00:00" } } }',
        '  - id: fault',
        '    faults: { add: { path: /v1/auth/*/roles, status: 503, times: 1 } }',
        '    capture: { id: $.id }',
        '  - inspect: faults',
        '    expect: { body: { faults: [{ id: { $sameAs: steps.fault.id }, status: 503 }] } }',
        '  - request: { path: "/v1/auth/${{ target.mount }}/roles", query: { list: "true" } }',
        '    expect: { status: 503 }',
        '  - id: principal',
        '    cloud.createPrincipal: { type: user, name: "http-${{ run.id }}" }',
        '    capture: { arn: $.arn }',
        '  - cloud.deletePrincipal: "${{ steps.principal.arn }}"',
        '  - id: instance',
        '    cloud.createInstance: { state: running }',
        '    capture: { id: $.instance_id }',
        '  - cloud.setInstanceState: { instance_id: "${{ steps.instance.id }}", state: stopped }',
        '    expect: { body: { state: stopped } }',
        '  - cloud.getInstance: { instance_id: "${{ steps.instance.id }}" }',
        '    expect: { body: { state: stopped } }',
        '  - cloud.identityDocument: { instance_id: "${{ steps.instance.id }}", format: document }',
        '    expect: { body: { identity: { $type: string }, document: { $regex: "${{ steps.instance.id }}" } } }',
        '  - faults: { clear: true }',
        '  - reset: true',
        '  - desc: the scenario mount is back after the reset, empty',
        '    request: { path: "/v1/auth/${{ target.mount }}/roles", query: { list: "true" } }',
        '    expect: { status: 404, match: exact, body: { errors: [] } }',
        '  - inspect: clock',
        '    expect: { body: { now: { $regex: "^20" } } }',
      ]),
    ])
    expect(verdicts(result).filter((line) => !line.endsWith(': passed'))).toEqual([])
  })

  it('the CLI reaches it by URL and exits 0', async () => {
    let stdout = ''
    const code = await main(['run', 'scenarios/cloud-auth/roles-crud.yaml', '--target', server.url], { stdout: (s) => (stdout += s), stderr: () => undefined, cwd: process.cwd() })
    expect(stdout.trimEnd().split('\n').at(-1)).toBe('1 passed, 0 failed, 0 skipped')
    expect(code).toBe(0)
  })
})

describe('http target failures', () => {
  it('an unreachable target throws TargetUnreachableError; the CLI exits 3', async () => {
    const url = `http://127.0.0.1:${await closedPort()}`
    await expect(createTarget(url)).rejects.toBeInstanceOf(TargetUnreachableError)
    let stderr = ''
    const code = await main(['run', 'scenarios/cloud-auth/roles-crud.yaml', '--target', url], { stdout: () => undefined, stderr: (s) => (stderr += s), cwd: process.cwd() })
    expect(code).toBe(3)
    expect(stderr).toBe(`doppel run: target "${url}" is unreachable at ${url}: connect ECONNREFUSED 127.0.0.1:${url.split(':')[2]}\n`)
  })

  it('a plain server has only the declared capabilities plus its services', async () => {
    const { target } = await plainHttpTarget([])
    expect([...target.capabilities]).toEqual(['auth'])
    const registryOnly = await createHttpTarget({ registryUrl: 'http://tfe.test', fetch: async () => new Response('', { status: 404 }) })
    expect([...registryOnly.capabilities]).toEqual(['registry'])
    expect(registryOnly.info.baseUrl).toBe('http://tfe.test')
  })

  it('the vault profile uses its own token and server-id header names', async () => {
    const target = await createHttpTarget({ url: 'http://vault.test', profile: 'vault', token: 't', fetch: async () => new Response('', { status: 404 }) })
    expect(target.info).toMatchObject({ tokenHeader: 'X-Vault-Token', serverIdHeader: 'X-Vault-AWS-IAM-Server-ID', badInputStatus: 500, mount: 'cloud' })
  })
})
