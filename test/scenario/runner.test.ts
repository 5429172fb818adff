import { describe, expect, it } from 'vitest'
import { createTarget } from '../../src/faces/scenario/index.ts'
import { plainHttpTarget, run, scenarioText, verdicts } from './helpers.ts'

const ROLE = (name: string) => [
  `  - id: create`,
  `    request:`,
  `      method: POST`,
  `      path: /v1/auth/\${{ target.mount }}/role/${name}`,
  `      json: { auth_type: ec2, bound_ami_id: ami-0abc1234 }`,
  `    expect: { status: 204 }`,
]

describe('captures', () => {
  it('takes JSONPath, header and status captures, and later steps use them with their types', async () => {
    const target = await createTarget('emulator')
    const result = await run(target, [
      scenarioText('captures', [
        'steps:',
        ...ROLE('web'),
        '  - id: read',
        '    request: { path: "/v1/auth/${{ target.mount }}/role/web" }',
        '    capture:',
        '      role_id: $.data.role_id',
        '      amis: $.data.bound_ami_id',
        '      type: header:Content-Type',
        '      code: status',
        '      all: $.data',
        '  - id: reuse',
        '    request:',
        '      method: POST',
        '      path: /v1/auth/${{ target.mount }}/role/copy',
        '      json: { auth_type: ec2, bound_ami_id: "${{ steps.read.amis }}" }',
        '    expect: { status: 204 }',
        '  - request: { path: /v1/auth/cloud/role/web }',
        '    expect: { status: "${{ steps.read.code }}" }',
        '  - request: { path: "/v1/auth/${{ target.mount }}/role/copy" }',
        '    expect:',
        '      headers: { Content-Type: "${{ steps.read.type }}" }',
        '      body:',
        '        data:',
        '          bound_ami_id: [ami-0abc1234]',
        '          auth_type: "${{ steps.read.all.auth_type }}"',
        '          role_id: { $ne: "${{ steps.read.role_id }}" }',
      ]),
    ])
    expect(verdicts(result)).toEqual([
      'create: passed',
      'read: passed',
      'reuse: passed',
      'GET /v1/auth/cloud/role/web: passed',
      'GET /v1/auth/${{ target.mount }}/role/copy: passed',
    ])
  })

  it('a capture that is not in the response fails the step and says which', async () => {
    const target = await createTarget('emulator')
    const result = await run(target, [
      scenarioText('missing capture', [
        'steps:',
        '  - id: health',
        '    request: { path: /v1/auth/cloud/roles, query: { list: "true" } }',
        '    capture: { keys: $.data.keys, loc: "header:Location" }',
        '  - request: { path: "/x/${{ steps.health.keys }}" }',
      ]),
    ])
    expect(verdicts(result)).toEqual([
      'health: failed (capture "keys": $.data.keys is not in the response body)',
      'GET /x/${{ steps.health.keys }}: skipped (not run: step "health" failed)',
    ])
  })

  it('a template that does not resolve fails its step with the path', async () => {
    const target = await createTarget('emulator')
    const result = await run(target, [
      scenarioText('env', ['steps:', '  - request: { path: "/v1/${{ env.DOPPEL_SURELY_UNSET_VAR }}" }']),
    ])
    expect(verdicts(result)).toEqual(['GET /v1/${{ env.DOPPEL_SURELY_UNSET_VAR }}: failed (env.DOPPEL_SURELY_UNSET_VAR is not defined)'])
  })

  it('vars resolve in order over run.id and target, and --var replaces them', async () => {
    const target = await createTarget('emulator')
    const text = scenarioText('vars', [
      'vars:',
      '  suffix: x',
      '  role: r-${{ run.id }}-${{ vars.suffix }}',
      'steps:',
      '  - request: { method: POST, path: "/v1/auth/${{ target.mount }}/role/${{ vars.role }}", json: { auth_type: ec2, bound_ami_id: a } }',
      '  - request: { path: /v1/auth/cloud/roles, query: { list: "true" } }',
      '    expect: { body: { data: { keys: ["${{ vars.role }}"] } } }',
    ])
    expect((await run(target, [text])).passed).toBe(1)
    const replaced = await run(target, [text], { vars: { role: 'given' } })
    expect(replaced.passed).toBe(1)
  })
})

describe('skips and their propagation', () => {
  it('a scenario needing a capability the target lacks is skipped whole, with the reason', async () => {
    const { target } = await plainHttpTarget([])
    const result = await run(target, [scenarioText('needs cloud', ['requires: [fake-cloud]', 'steps:', '  - request: { path: /v1/sys/health }'])])
    expect(result.scenarios[0]!.verdict).toBe('skipped')
    expect(result.scenarios[0]!.reason).toBe('target "plain" lacks capability "fake-cloud"')
    expect(verdicts(result)).toEqual(['GET /v1/sys/health: skipped (target "plain" lacks capability "fake-cloud")'])
    expect([result.passed, result.failed, result.skipped]).toEqual([0, 0, 1])
  })

  it('a scenario labelled profile-<name> runs only on a target of that profile', async () => {
    const text = scenarioText('vault only', ['labels: [login, profile-vault]', 'steps:', '  - request: { path: /v1/auth/aws/roles, query: { list: "true" } }', '    expect: { status: 404 }'])
    const service = await run(await createTarget('emulator'), [text])
    expect(service.scenarios[0]!.reason).toBe('target "emulator" runs the service profile; this scenario is for vault')
    expect([service.passed, service.failed, service.skipped]).toEqual([0, 0, 1])
    const vault = await run(await createTarget({ kind: 'emulator', profile: 'vault' }), [text])
    expect([vault.passed, vault.failed, vault.skipped]).toEqual([1, 0, 0])
  })

  it('fixtures need the fixtures capability', async () => {
    const { target } = await plainHttpTarget(['clock'])
    const result = await run(target, [scenarioText('fx', ['fixtures: { registry: { organizations: [acme] } }', 'steps:', '  - request: { path: /v1/x }'])])
    expect(result.scenarios[0]!.reason).toBe('target "plain" lacks capability "fixtures"')
  })

  it('a step needing a missing capability is skipped; steps using its captures too; independent steps run', async () => {
    const { target } = await plainHttpTarget([])
    const result = await run(target, [
      scenarioText('partial', [
        'steps:',
        ...ROLE('web'),
        '  - id: instance',
        '    cloud.createInstance: {}',
        '    capture: { id: $.instance_id }',
        '  - id: uses-instance',
        '    request: { path: "/v1/auth/cloud/identity-accesslist/${{ steps.instance.id }}" }',
        '  - id: transitively',
        '    request: { path: /v1/auth/cloud/role/web }',
        '    expect: { body: { data: { role_id: { $sameAs: steps.uses-instance.x } } } }',
        '  - id: independent',
        '    request: { path: /v1/auth/cloud/role/web }',
        '    expect: { status: 200 }',
        '  - id: registry-read',
        '    request: { path: /api/registry/v1/modules/acme/vpc/aws/versions }',
      ]),
    ])
    expect(verdicts(result)).toEqual([
      'create: passed',
      'instance: skipped (target "plain" lacks capability "fake-cloud")',
      'uses-instance: skipped (uses captures of skipped step "instance")',
      'transitively: skipped (uses captures of skipped step "uses-instance")',
      'independent: passed',
      'registry-read: skipped (target "plain" lacks capability "registry")',
    ])
    expect(result.scenarios[0]!.verdict).toBe('passed')
  })

  it('clock.advance becomes a real wait within maxRealWait, and passes', async () => {
    const { target } = await plainHttpTarget([], { maxRealWait: '50ms' })
    const result = await run(target, [scenarioText('wait', ['steps:', '  - clock.advance: 10ms', ...ROLE('after-wait')])])
    expect(verdicts(result)).toEqual(['clock.advance 10ms: passed', 'create: passed'])
  })

  it('a clock.advance longer than maxRealWait is skipped, and so is the rest of the main steps (not finally)', async () => {
    const { target } = await plainHttpTarget([], { maxRealWait: '50ms' })
    const result = await run(target, [
      scenarioText('long wait', ['steps:', ...ROLE('before'), '  - clock.advance: 73h', '  - request: { path: /v1/auth/cloud/role/before }', 'finally:', '  - request: { method: DELETE, path: /v1/auth/cloud/role/before }']),
    ])
    expect(verdicts(result)).toEqual([
      'create: passed',
      'clock.advance 73h: skipped (target "plain" lacks capability "clock" and 73h is longer than its maxRealWait)',
      'GET /v1/auth/cloud/role/before: skipped (follows skipped step "clock.advance 73h", whose effect later steps rely on)',
      'DELETE /v1/auth/cloud/role/before: passed',
    ])
  })

  it('a step can declare capabilities beyond its action', async () => {
    const { target } = await plainHttpTarget([])
    const result = await run(target, [scenarioText('declared', ['steps:', '  - request: { path: /v1/x }', '    requires: [inspect, faults]'])])
    expect(verdicts(result)).toEqual(['GET /v1/x: skipped (target "plain" lacks capabilities "inspect", "faults")'])
  })

  it('after a failure the remaining main steps are skipped, and finally steps still run', async () => {
    const target = await createTarget('emulator')
    const result = await run(target, [
      scenarioText('fails', [
        'steps:',
        ...ROLE('web'),
        '  - id: wrong',
        '    request: { path: /v1/auth/cloud/role/web }',
        '    expect: { status: 404 }',
        '    capture: { id: $.data.role_id }',
        '  - id: later',
        '    request: { path: /v1/auth/cloud/role/web }',
        'finally:',
        '  - id: cleanup',
        '    request: { method: DELETE, path: /v1/auth/cloud/role/web }',
        '    expect: { status: 204 }',
        '  - request: { path: "/v1/auth/cloud/role/${{ steps.wrong.id }}" }',
        '  - request: { path: /v1/auth/cloud/role/web }',
        '    expect: { status: 404 }',
      ]),
    ])
    expect(verdicts(result)).toEqual([
      'create: passed',
      'wrong: failed',
      'later: skipped (not run: step "wrong" failed)',
      'cleanup: passed',
      'GET /v1/auth/cloud/role/${{ steps.wrong.id }}: skipped (uses captures of failed step "wrong")',
      'GET /v1/auth/cloud/role/web: passed',
    ])
    expect(result.scenarios[0]!.verdict).toBe('failed')
    expect(result.scenarios[0]!.steps[1]!.mismatches).toEqual([{ path: 'status', message: 'expected 404, got 200' }])
  })

  it('fixtures that fail to load fail the set-up, skip the steps, and still run finally', async () => {
    const target = await createTarget('emulator')
    const result = await run(target, [
      scenarioText('bad fixture', [
        'vars:',
        '  name: web',
        'fixtures:',
        '  auth:',
        '    roles:',
        '      ${{ vars.name }}: { auth_type: ec2 }',
        'steps:',
        '  - request: { path: /v1/auth/cloud/role/web }',
        'finally:',
        '  - request: { method: DELETE, path: /v1/auth/cloud/role/web }',
      ]),
    ])
    expect(verdicts(result)).toEqual([
      'fixtures: failed (s0.yaml:8: fixtures.auth.roles.web: at least one bound parameter should be specified on the role)',
      'GET /v1/auth/cloud/role/web: skipped (not run: the fixtures failed to load)',
      'DELETE /v1/auth/cloud/role/web: passed',
    ])
    expect(result.scenarios[0]!.verdict).toBe('failed')
  })

  it('vars that do not resolve fail the set-up', async () => {
    const target = await createTarget('emulator')
    const result = await run(target, [scenarioText('bad var', ['vars:', '  home: ${{ env.DOPPEL_SURELY_UNSET_VAR }}', 'steps:', '  - reset: true'])])
    expect(verdicts(result)).toEqual([
      'vars: failed (vars.home: env.DOPPEL_SURELY_UNSET_VAR is not defined)',
      'reset: skipped (not run: the vars failed to resolve)',
    ])
  })

  it('a failing finally step fails a scenario whose steps passed', async () => {
    const target = await createTarget('emulator')
    const result = await run(target, [scenarioText('bad cleanup', ['steps:', ...ROLE('web'), 'finally:', '  - request: { method: DELETE, path: /v1/auth/cloud/role/web }', '    expect: { status: 200 }'])])
    expect(result.scenarios[0]!.verdict).toBe('failed')
  })
})

describe('runs', () => {
  it('counts scenarios, keeps input order with several jobs, and isolates emulator instances', async () => {
    const target = await createTarget('emulator')
    const texts = Array.from({ length: 4 }, (_, i) =>
      scenarioText(`s${i}`, ['steps:', ...ROLE('shared'), '  - request: { path: /v1/auth/cloud/roles, query: { list: "true" } }', '    expect: { body: { data: { keys: [shared] } } }']),
    )
    texts.push(scenarioText('fails', ['steps:', '  - request: { path: /v1/auth/cloud/role/none }', '    expect: { status: 200 }']))
    const result = await run(target, texts, { jobs: 3 })
    expect(result.scenarios.map((s) => s.name)).toEqual(['s0', 's1', 's2', 's3', 'fails'])
    expect([result.passed, result.failed, result.skipped]).toEqual([4, 1, 0])
  })

  it('--fail-fast reports the scenarios it did not start as skipped', async () => {
    const target = await createTarget('emulator')
    const failing = scenarioText('fails', ['steps:', '  - request: { path: /v1/auth/cloud/role/none }', '    expect: { status: 200 }'])
    const passing = scenarioText('passes', ['steps:', ...ROLE('x')])
    const result = await run(target, [failing, passing], { failFast: true })
    expect(result.scenarios.map((s) => s.verdict)).toEqual(['failed', 'skipped'])
    expect(result.scenarios[1]!.reason).toBe('not run: --fail-fast stopped the run after a failure')
  })

  it('retries until the response matches, up to the count', async () => {
    const target = await createTarget('emulator')
    const result = await run(target, [
      scenarioText('retry', [
        'steps:',
        ...ROLE('web'),
        '  - faults: { add: { method: GET, path: /v1/auth/cloud/role/*, status: 503, times: 2 } }',
        '  - id: eventually',
        '    request: { path: /v1/auth/cloud/role/web }',
        '    retry: { count: 3, interval: 0s }',
        '    expect: { status: 200 }',
        '  - id: gives-up',
        '    request: { path: /v1/auth/cloud/role/none }',
        '    retry: { count: 1, interval: 0s, until: { status: 200 } }',
        '    expect: { status: 404 }',
        '  - id: not-enough',
        '    faults: { add: { method: GET, path: /v1/auth/cloud/role/*, status: 503, times: 3 } }',
        '  - request: { path: /v1/auth/cloud/role/web }',
        '    retry: { count: 1, interval: 0s }',
        '    expect: { status: 200 }',
      ]),
    ])
    const steps = result.scenarios[0]!.steps
    expect(steps.map((s) => [s.title, s.verdict, s.attempts])).toEqual([
      ['create', 'passed', 1],
      ['faults', 'passed', 1],
      ['eventually', 'passed', 3],
      ['gives-up', 'passed', 2],
      ['not-enough', 'passed', 1],
      ['GET /v1/auth/cloud/role/web', 'failed', 2],
    ])
    expect(steps[5]!.mismatches[0]!.message).toBe('expected 200, got 503')
  })
})
