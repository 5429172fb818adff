import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { loadTargetsFile, parseScenario, ScenarioError } from '../../src/faces/scenario/index.ts'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { tempDir } from '../support/temp-dir.ts'

/** The `file:line: message` lines a scenario text is refused with. */
function problems(text: string, file = 's.yaml'): string[] {
  try {
    parseScenario(text, file)
  } catch (error) {
    if (error instanceof ScenarioError) return error.lines()
    throw error
  }
  throw new Error('the scenario was accepted')
}

const HEAD = 'version: 1\nname: t\n'

describe('scenario validation: schema errors carry file and line', () => {
  it('accepts a minimal scenario', () => {
    const scenario = parseScenario(`${HEAD}steps:\n  - request: { path: /v1/sys/health }\n`, 'ok.yaml')
    expect(scenario.steps).toHaveLength(1)
    expect(scenario.steps[0]!.line).toBe(4)
    expect(scenario.steps[0]!.title).toBe('GET /v1/sys/health')
  })

  it('reports a missing required key at the mapping', () => {
    expect(problems('version: 1\nsteps:\n  - reset: true\n')).toEqual(['s.yaml:1: missing required key "name"'])
  })

  it('reports an unknown key at the key, with a suggestion', () => {
    const text = `${HEAD}steps:\n  - request: { path: /x }\n    expct: { status: 200 }\n`
    expect(problems(text)).toEqual(['s.yaml:5: steps[0].expct: unknown key "expct" (did you mean "expect"?)'])
  })

  it('reports a wrong type deep inside a step', () => {
    const text = `${HEAD}steps:\n  - request:\n      path: /x\n      headers:\n        X-A: [1, 2]\n`
    expect(problems(text)).toEqual(['s.yaml:7: steps[0].request.headers.X-A: must be a string, a number or a boolean, not a list'])
  })

  it('wants exactly one action per step, naming what it found', () => {
    const none = problems(`${HEAD}steps:\n  - id: a\n`)
    expect(none).toHaveLength(1)
    expect(none[0]).toMatch(/^s\.yaml:4: steps\[0\]: must have exactly one of: request, cloud\.identityDocument, .* \(found none\)$/)
    const two = problems(`${HEAD}steps:\n  - reset: true\n  - clock.advance: 1h\n    inspect: state\n`)
    expect(two).toEqual([expect.stringMatching(/^s\.yaml:5: steps\[1\]: must have exactly one of: .* \(found "clock\.advance" and "inspect"\)$/)])
  })

  it('explains bad durations, statuses, enums and versions in words', () => {
    expect(problems(`${HEAD}steps:\n  - clock.advance: soon\n`)).toEqual([
      's.yaml:4: steps[0]["clock.advance"]: must be a duration such as 500ms, 1s, 72h or 1h30m, or a number of seconds',
    ])
    expect(problems(`${HEAD}steps:\n  - request: { path: /x }\n    expect: { status: ok }\n`)).toEqual([
      's.yaml:5: steps[0].expect.status: must be a status code, a list of them, a $ matcher or a ${{ }} expression',
    ])
    expect(problems(`${HEAD}steps:\n  - inspect: everything\n`)).toEqual([
      's.yaml:4: steps[0].inspect: must be one of: state, journal, faults, clock (got "everything")',
    ])
    expect(problems('version: 2\nname: t\nsteps:\n  - reset: true\n')).toEqual(['s.yaml:1: version: must be 1'])
  })

  it('reports unknown capabilities and request without path or url', () => {
    expect(problems(`${HEAD}requires: [time-travel]\nsteps:\n  - request: { method: GET }\n`)).toEqual([
      's.yaml:3: requires[0]: must be one of: auth, registry, clock, reset, inspect, fixtures, fake-cloud, faults, mounts (got "time-travel")',
      's.yaml:5: steps[0].request: must have exactly one of: path, url (found none)',
    ])
  })

  it('validates the fixtures block against the fixture schema, with lines in the scenario', () => {
    const text = `${HEAD}fixtures:\n  cloud:\n    instances:\n      - { account_id: 123456789012 }\n  auth:\n    roles:\n      web: { auth_typ: ec2 }\nsteps:\n  - reset: true\n`
    expect(problems(text)).toEqual([
      's.yaml:6: fixtures.cloud.instances[0].account_id: must be a quoted string of 12 digits (YAML reads an unquoted one as a number)',
      's.yaml:9: fixtures.auth.roles.web.auth_typ: unknown key "auth_typ" (did you mean "auth_type"?)',
    ])
  })

  it('reports YAML syntax errors once per line, with a hint for unquoted templates in flow mappings', () => {
    const lines = problems(`${HEAD}steps:\n  - request: { path: /v1/\${{ vars.x }}/y }\n`)
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatch(/^s\.yaml:4: .*\(inside \{ \} or \[ \], quote values that hold \$\{\{ \}\}\)$/)
    expect(problems('a: 1\na: 2\n')).toEqual(['s.yaml:2: Map keys must be unique'])
  })

  it('refuses a document that is not a mapping', () => {
    expect(problems('- 1\n- 2\n')).toEqual(['s.yaml:1: a scenario must be a mapping with version, name and steps'])
  })
})

describe('scenario validation: meaning', () => {
  it('checks template names, declared vars and steps that run earlier', () => {
    const text = [
      HEAD + 'vars:',
      '  a: ${{ vars.b }}',
      '  b: ${{ steps.x.y }}',
      'steps:',
      '  - id: first',
      '    request: { path: "/${{ steps.later.id }}" }',
      '  - id: later',
      '    request: { path: "/${{ target.mnt }}/${{ run.when }}/${{ nope.x }}" }',
      '  - request: { path: "/${{ steps.first }}" }',
      '  - request: { path: "/${{ vars.a " }',
      '',
    ].join('\n')
    expect(problems(text)).toEqual([
      's.yaml:4: vars.a: vars.b: no var "b" is declared before this one',
      's.yaml:5: vars.b: steps.x.y: steps cannot be used in vars',
      's.yaml:8: steps[0].request.path: steps.later.id: no step with id "later" runs before this one',
      's.yaml:10: steps[1].request.path: invalid expression "${{ nope.x }}": unknown name "nope" (use vars., steps., target., run., env.)',
      's.yaml:11: steps[2].request.path: steps.first: name a capture, e.g. steps.first.<capture>',
      's.yaml:12: steps[3].request.path: unclosed "${{" in "/${{ vars.a "',
    ])
  })

  it('checks the closed set of matchers and their operands', () => {
    const text = [
      HEAD + 'steps:',
      '  - request: { path: /x }',
      '    expect:',
      '      body:',
      '        a: { $foo: 1 }',
      '        b: { $type: strin }',
      '        c: { $regex: "(" }',
      '        d: { $gt: 1, e: 2 }',
      '        f: { $length: -1 }',
      '        g: { $duration: soon }',
      '        h: { $sameAs: vars.x }',
      '        i: { $each: { $bogus: 1 } }',
      '',
    ].join('\n')
    expect(problems(text)).toEqual([
      's.yaml:7: steps[0].expect.body.a.$foo: unknown matcher "$foo" (one of $eq $ne $gt $gte $lt $lte $in $regex $type $minLength $length $contains $each $absent $exists $duration $sameAs)',
      's.yaml:8: steps[0].expect.body.b.$type: $type takes one of string, number, integer, boolean, object, array, null (or a list of them)',
      expect.stringMatching(/^s\.yaml:9: steps\[0\]\.expect\.body\.c\.\$regex: \$regex is not a valid regular expression: /),
      's.yaml:10: steps[0].expect.body.d: a mapping with $ matchers cannot also have plain keys (e)',
      's.yaml:11: steps[0].expect.body.f.$length: $length takes a non-negative integer',
      expect.stringMatching(/^s\.yaml:12: steps\[0\]\.expect\.body\.g\.\$duration: \$duration takes a duration such as 72h/),
      's.yaml:13: steps[0].expect.body.h.$sameAs: $sameAs takes a reference such as steps.create.id',
      expect.stringMatching(/^s\.yaml:14: steps\[0\]\.expect\.body\.i\.\$each\.\$bogus: unknown matcher "\$bogus"/),
    ])
  })

  it('refuses a retry interval it cannot read', () => {
    expect(problems(`${HEAD}steps:\n  - request: { path: /x }\n    retry: { count: 2, interval: 1h1d }\n`)).toEqual([
      's.yaml:5: steps[0].retry.interval: must be a duration such as 500ms or 1s (templates are not resolved here)',
    ])
  })

  it('refuses duplicate ids, two bodies, and bad capture paths', () => {
    const text = [
      HEAD + 'steps:',
      '  - id: a',
      '    reset: true',
      '  - id: a',
      '    request: { path: /x, json: {}, body: "y" }',
      '    capture: { v: "$..deep", h: "header:Location" }',
      '',
    ].join('\n')
    expect(problems(text)).toEqual([
      's.yaml:6: steps[1].id: step id "a" is already used',
      's.yaml:7: steps[1].request.body: give only one of json, body, bodyBase64 and form (found json and body)',
      's.yaml:8: steps[1].capture.v: invalid JSONPath "$..deep": unexpected "." at position 1',
    ])
  })

  it('records which earlier steps a step depends on, through templates and $sameAs', () => {
    const scenario = parseScenario(
      [
        HEAD + 'steps:',
        '  - id: a',
        '    request: { path: /a }',
        '    capture: { x: $.x }',
        '  - id: b',
        '    request: { path: /b }',
        '    capture: { y: $.y }',
        '  - request: { path: "/c/${{ steps.a.x }}" }',
        '    expect: { body: { y: { $sameAs: steps.b.y } } }',
        '',
      ].join('\n'),
      'd.yaml',
    )
    expect(scenario.steps[2]!.dependsOn.sort()).toEqual(['a', 'b'])
    expect(scenario.steps[0]!.dependsOn).toEqual([])
  })

  it('never crashes on arbitrary documents: either a scenario or file:line problems', () => {
    const value = fc.letrec((tie) => ({
      node: fc.oneof(
        { depthSize: 'small' },
        fc.constantFrom(null, true, 1, -2.5, 'x', '${{ vars.a }}', '${{', '$.a', '1h', '1h1d', 'request', 'GET'),
        fc.array(tie('node'), { maxLength: 3 }),
        fc.dictionary(fc.constantFrom('version', 'name', 'steps', 'request', 'path', 'expect', 'body', 'status', '$eq', '$type', 'id', 'vars', 'capture', 'reset', 'clock.advance', 'fixtures', 'auth', 'retry', 'count', 'interval', 'until', 'query', 'json'), tie('node'), { maxKeys: 4 }),
      ),
    })).node
    fc.assert(
      fc.property(value, (doc) => {
        const text = JSON.stringify(doc)
        try {
          parseScenario(text, 'p.yaml')
        } catch (error) {
          expect(error).toBeInstanceOf(ScenarioError)
          for (const line of (error as ScenarioError).lines()) expect(line).toMatch(/^p\.yaml:\d+: ./)
        }
      }),
      { numRuns: 400 },
    )
  })

  it('turns alias trouble into problems, not crashes', () => {
    expect(problems('*!')).toEqual(['s.yaml:1: Unresolved alias (the anchor must be set before the alias): !'])
    expect(problems('&a [*a]')).toEqual(['s.yaml:1: an alias refers to a collection that contains it (circular data)'])
  })

  it('never crashes on scenario-shaped documents with random steps', () => {
    const leaf = fc.constantFrom<unknown>(null, true, 0, 204, -1, 'x', '/v1/x', '${{ vars.a }}', '${{ steps.a.b }}', '${{ target.mount }}', '${{ x', '$.a', '$..a', 'header:X', '1h', '1h1d', 'soon', [], {}, [1], { $type: 'string' }, { $bogus: 1 }, { $regex: '(' }, { $sameAs: 'steps.a.b' })
    const object = (keys: string[]) => fc.dictionary(fc.constantFrom(...keys), leaf, { maxKeys: 4 })
    const step = fc.record(
      {
        id: fc.constantFrom('a', 'b', 'a-b', '1x'),
        request: fc.oneof(leaf, object(['method', 'path', 'url', 'json', 'body', 'form', 'headers', 'query', 'token', 'service'])),
        expect: fc.oneof(leaf, object(['status', 'headers', 'body', 'match'])),
        capture: fc.oneof(leaf, object(['a', 'b'])),
        retry: fc.oneof(leaf, object(['count', 'interval', 'until'])),
        requires: leaf,
        'clock.advance': leaf,
      },
      { requiredKeys: [] },
    )
    fc.assert(
      fc.property(fc.array(step, { maxLength: 4 }), fc.array(step, { maxLength: 2 }), fc.option(object(['a', 'b'])), (steps, cleanup, vars) => {
        const doc = { version: 1, name: 'p', ...(vars && { vars }), steps, finally: cleanup }
        try {
          parseScenario(JSON.stringify(doc), 'p.yaml')
        } catch (error) {
          expect(error).toBeInstanceOf(ScenarioError)
        }
      }),
      { numRuns: 500 },
    )
  })

  it('never crashes on arbitrary text', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), (text) => {
        try {
          parseScenario(text, 'r.yaml')
        } catch (error) {
          expect(error).toBeInstanceOf(ScenarioError)
        }
      }),
      { numRuns: 300 },
    )
  })
})

describe('targets files', () => {
  const dir = tempDir('targets')
  const write = (name: string, text: string) => {
    const path = join(dir, name)
    writeFileSync(path, text)
    return path
  }

  it('expands ${VAR} and ${VAR:-default} when a target is chosen', () => {
    const file = loadTargetsFile(
      write('t.yaml', 'targets:\n  vault:\n    url: "${VAULT_ADDR}"\n    token: "${VAULT_TOKEN:-root}"\n    profile: vault\n    capabilities: [fake-cloud, mounts]\n    cloudUrl: http://127.0.0.1:9\n    maxRealWait: 5s\n  local: { kind: emulator, seed: 7 }\n'),
      { VAULT_ADDR: 'http://127.0.0.1:8200' },
    )
    expect(file.names).toEqual(['vault', 'local'])
    expect(file.resolve('vault')).toEqual({
      kind: 'http',
      name: 'vault',
      url: 'http://127.0.0.1:8200',
      token: 'root',
      profile: 'vault',
      capabilities: ['fake-cloud', 'mounts'],
      cloudUrl: 'http://127.0.0.1:9',
      maxRealWait: '5s',
    })
    expect(file.resolve('local')).toEqual({ kind: 'emulator', name: 'local', seed: 7 })
  })

  it('says which variable is unset, at its line', () => {
    const path = write('u.yaml', 'targets:\n  vault:\n    url: "${VAULT_ADDR}"\n')
    expect(() => loadTargetsFile(path, {}).resolve('vault')).toThrow(`${path}:3: targets.vault.url: environment variable VAULT_ADDR is not set`)
  })

  it('validates against targets.schema.json', () => {
    const path = write('v.yaml', 'targets:\n  x:\n    kind: docker\n')
    expect(() => loadTargetsFile(path)).toThrow(`${path}:3: targets.x.kind: must be one of: emulator, http (got "docker")`)
  })
})
