import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { main } from '../../src/cli/main.ts'
import { scenarioText } from './helpers.ts'
import { tempDir } from '../support/temp-dir.ts'

function workspace(files: Record<string, string>): string {
  const dir = tempDir('run')
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true })
    writeFileSync(join(dir, name), text)
  }
  return dir
}

async function cli(argv: string[], cwd: string, command = 'run'): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = ''
  let stderr = ''
  const code = await main([command, ...argv], { stdout: (s) => (stdout += s), stderr: (s) => (stderr += s), cwd })
  return { code, stdout, stderr }
}

const PASSING = scenarioText('creates a role', [
  'labels: [cloud-auth, ec2]',
  'vars:',
  '  role: web',
  'steps:',
  '  - request: { method: POST, path: "/v1/auth/cloud/role/${{ vars.role }}", json: { auth_type: ec2, bound_ami_id: a } }',
  '    expect: { status: 204 }',
  '  - request: { path: "/v1/auth/cloud/role/${{ vars.role }}" }',
  '    expect: { status: 200 }',
])
const FAILING = scenarioText('reads a missing role', ['labels: [cloud-auth, iam]', 'steps:', '  - request: { path: /v1/auth/cloud/role/none }', '    expect: { status: 200 }'])
const REGISTRY = scenarioText('registry ping', ['labels: [registry]', 'steps:', '  - request: { path: /api/v2/ping }', '    expect: { status: 204 }'])

describe('doppel run', () => {
  it('exit 0 when every scenario passes; the last line counts scenarios', async () => {
    const dir = workspace({ 'a.yaml': PASSING })
    const { code, stdout } = await cli(['a.yaml'], dir)
    expect(code).toBe(0)
    expect(stdout.trimEnd().split('\n').at(-1)).toBe('1 passed, 0 failed, 0 skipped')
  })

  it('exit 4 when a scenario fails', async () => {
    const dir = workspace({ 'a.yaml': PASSING, 'b.yaml': FAILING })
    const { code, stdout } = await cli(['.'], dir)
    expect(code).toBe(4)
    expect(stdout.trimEnd().split('\n').at(-1)).toBe('1 passed, 1 failed, 0 skipped')
  })

  it('exit 2 for an invalid scenario, listing every problem and running nothing', async () => {
    const dir = workspace({
      'good.yaml': PASSING,
      'bad/one.yaml': 'version: 1\nname: x\nsteps:\n  - request: { path: /x }\n    expct: 1\n',
      'bad/two.yaml': 'version: 1\nsteps: []\n',
    })
    const { code, stdout, stderr } = await cli(['.', '--reporter', 'json', '--out', 'report.json'], dir)
    expect(code).toBe(2)
    expect(stdout).toBe('')
    expect(stderr.split('\n')).toEqual([
      'bad/one.yaml:5: steps[0].expct: unknown key "expct" (did you mean "expect"?)',
      'bad/two.yaml:1: missing required key "name"',
      'bad/two.yaml:2: steps: must have at least 1 item',
      '3 problems found; nothing was run.',
      '',
    ])
    expect(existsSync(join(dir, 'report.json'))).toBe(false)
  })

  it('exit 1 for usage mistakes, with a clear message', async () => {
    const dir = workspace({ 'a.yaml': PASSING })
    for (const [argv, message] of [
      [['a.yaml', '--bogus'], 'doppel run: unknown option --bogus'],
      [['a.yaml', '--jobs', '0'], '--jobs must be a positive integer, not "0"'],
      [['a.yaml', '--reporter', 'html'], '--reporter must be one of pretty, junit, json, tap, not "html"'],
      [['a.yaml', '--var', 'novalue'], '--var takes name=value, not "novalue"'],
      [['a.yaml', '--label', 'ec2 and'], 'invalid --label expression "ec2 and": it ends too early'],
      [['a.yaml', '--target', 'staging'], '--target must be emulator or a URL (or a name with --targets), not "staging"'],
      [['a.yaml', '--profile', 'consul'], '--profile must be service or vault, not "consul"'],
      [['missing.yaml'], 'no such file or directory: missing.yaml'],
      [[], 'name at least one scenario file or directory'],
    ] as const) {
      const { code, stderr } = await cli([...argv], dir)
      expect(code, argv.join(' ')).toBe(1)
      expect(stderr).toContain(message)
      expect(stderr).toContain('Run "doppel run --help" for usage.')
    }
  })

  it('--help prints the usage and exits 0', async () => {
    const { code, stdout } = await cli(['--help'], tmpdir())
    expect(code).toBe(0)
    expect(stdout).toMatch(/^Usage: doppel run <files\|dirs\.\.\.> \[options\]/)
    expect(stdout).toContain('Exit codes: 0 all passed, 1 usage, 2 invalid scenario, 3 target unreachable, 4 failures.')
  })

  it('--label selects scenarios by expression; --list shows them without running', async () => {
    const dir = workspace({ 'a.yaml': PASSING, 'b.yaml': FAILING, 'c.yaml': REGISTRY })
    let result = await cli(['.', '--list', '--label', 'cloud-auth and not iam'], dir)
    expect(result.code).toBe(0)
    expect(result.stdout).toBe('a.yaml  creates a role  [cloud-auth, ec2]\n1 scenario\n')
    result = await cli(['.', '--list', '--label', '(registry or iam) and not ec2'], dir)
    expect(result.stdout).toBe('b.yaml  reads a missing role  [cloud-auth, iam]\nc.yaml  registry ping  [registry]\n2 scenarios\n')
    result = await cli(['.', '--label', 'ec2'], dir)
    expect(result.code).toBe(0)
  })

  it('skips fixtures folders and targets files when searching directories', async () => {
    const dir = workspace({ 'a.yaml': PASSING, 'fixtures/f.yaml': 'auth: {}\n', 'targets.yaml': 'targets: {}\n' })
    const { code, stdout } = await cli(['.', '--list'], dir)
    expect(code).toBe(0)
    expect(stdout).toBe('a.yaml  creates a role  [cloud-auth, ec2]\n1 scenario\n')
  })

  it('--var replaces a scenario var', async () => {
    const dir = workspace({ 'a.yaml': PASSING })
    const { code, stdout } = await cli(['a.yaml', '--var', 'role=other', '--reporter', 'json'], dir)
    expect(code).toBe(0)
    expect(JSON.parse(stdout).scenarios[0].steps[0].request.url).toBe('http://doppel.test/v1/auth/cloud/role/other')
  })

  it('--reporter junit --out writes the report to a file and progress to stdout', async () => {
    const dir = workspace({ 'a.yaml': PASSING, 'b.yaml': FAILING })
    const { code, stdout } = await cli(['.', '--reporter', 'junit', '--out', 'reports/junit.xml'], dir)
    expect(code).toBe(4)
    const xml = readFileSync(join(dir, 'reports/junit.xml'), 'utf8')
    expect(xml).toMatch(/^<\?xml version="1\.0" encoding="UTF-8"\?>\n<testsuites name="doppel" tests="3" failures="1"/)
    expect(stdout.trimEnd().split('\n').at(-1)).toBe('1 passed, 1 failed, 0 skipped')
  })

  it('--targets names targets; --profile and --seed reach the emulator', async () => {
    const dir = workspace({
      'a.yaml': scenarioText('vault profile', ['steps:', '  - request: { path: "/v1/auth/aws/roles", query: { list: "true" } }', '    expect: { status: 404, body: { errors: [] } }']),
      'targets.yaml': 'targets:\n  local: { kind: emulator, seed: 3 }\n',
    })
    expect((await cli(['a.yaml', '--targets', 'targets.yaml', '--target', 'local', '--profile', 'vault'], dir)).code).toBe(0)
    expect((await cli(['a.yaml', '--profile', 'vault', '--seed', '7'], dir)).code).toBe(0)
    const unknown = await cli(['a.yaml', '--targets', 'targets.yaml', '--target', 'nope'], dir)
    expect(unknown.code).toBe(1)
    expect(unknown.stderr).toContain('no target named "nope" (one of local)')
  })
})

describe('doppel conformance', () => {
  it('has run\'s options and exit codes, over the bundled conformance directory', async () => {
    const help = await cli(['--help'], tmpdir(), 'conformance')
    expect(help.code).toBe(0)
    expect(help.stdout).toMatch(/^Usage: doppel conformance \[options\]/)
    const extra = await cli(['some.yaml'], tmpdir(), 'conformance')
    expect(extra.code).toBe(1)
    expect(extra.stderr).toContain('doppel conformance: unexpected argument "some.yaml"')
  })
})

describe('label expressions', () => {
  it('not binds tightest, then and, then or; parentheses group', async () => {
    const { parseLabelExpression } = await import('../../src/faces/scenario/index.ts')
    const match = (expression: string, labels: string[]) => parseLabelExpression(expression)(labels)
    expect(match('ec2 and not iam', ['ec2'])).toBe(true)
    expect(match('ec2 and not iam', ['ec2', 'iam'])).toBe(false)
    expect(match('registry or tidy', ['tidy'])).toBe(true)
    expect(match('a or b and not c', ['a', 'c'])).toBe(true)
    expect(match('(a or b) and not c', ['a', 'c'])).toBe(false)
    expect(match('not not a', ['a'])).toBe(true)
    expect(match('cloud-auth', ['cloud-auth'])).toBe(true)
    for (const bad of ['', 'a and', '(a', 'a b', 'and a', ')']) expect(() => parseLabelExpression(bad), bad).toThrow(/^invalid --label expression/)
  })
})
