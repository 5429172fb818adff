import { describe, expect, it } from 'vitest'
import { createReporter, createTarget, parseScenario, runScenarios, toJunitXml, type RunResult } from '../../src/faces/scenario/index.ts'
import { scenarioText } from './helpers.ts'

/** A run with a pass, a failure (with awkward characters), and a skip. */
async function sampleRun(reporter?: { name: 'pretty' | 'junit' | 'json' | 'tap'; write: (s: string) => void }, jobs = 1): Promise<RunResult> {
  const target = await createTarget('emulator')
  const texts = [
    scenarioText('passes & "quotes" <ok>', ['labels: [a]', 'steps:', '  - id: create', '    request: { method: POST, path: /v1/auth/cloud/role/web, json: { auth_type: ec2, bound_ami_id: a } }', '    expect: { status: 204 }']),
    scenarioText('fails', [
      'steps:',
      '  - id: read',
      '    desc: "reads a role that <is not> there \u0001"',
      '    request: { path: /v1/auth/cloud/role/missing }',
      '    expect:',
      '      status: 200',
      '      body: { data: { auth_type: ec2 } }',
      '  - id: never',
      '    request: { path: /v1/auth/cloud/role/missing }',
    ]),
    scenarioText('skipped', ['requires: [mounts, registry]', 'steps:', '  - reset: true']),
  ]
  const scenarios = texts.map((text, i) => parseScenario(text, `s${i}.yaml`))
  const skippingTarget = { ...target, capabilities: new Set([...target.capabilities].filter((c) => c !== 'mounts')) }
  return runScenarios(scenarios, {
    target: skippingTarget,
    runId: 'r',
    jobs,
    ...(reporter && { reporters: [createReporter(reporter.name, reporter.write)] }),
  })
}

describe('pretty reporter', () => {
  it('shows progress as it goes and ends with the summary line', async () => {
    const chunks: string[] = []
    await sampleRun({ name: 'pretty', write: (s) => chunks.push(s) })
    const text = chunks.join('')
    const lines = text.trimEnd().split('\n')
    expect(lines[0]).toBe('doppel run · target emulator · 3 scenarios')
    expect(lines.at(-1)).toBe('1 passed, 1 failed, 1 skipped')
    expect(text).toMatch(/● passes & "quotes" <ok> {2}\(s0\.yaml\)\n {2}✓ create {2}\d+ms\n/)
    expect(text).toContain('  ↓ never (skipped: not run: step "read" failed)')
    expect(text).toContain('  ↓ reset (skipped: target "emulator" lacks capability "mounts")')
    expect(chunks.length).toBeGreaterThan(5)
  })

  it('shows a failure with the request, and expected and actual side by side', async () => {
    let text = ''
    await sampleRun({ name: 'pretty', write: (s) => (text += s) })
    const block = text.slice(text.indexOf('✗ read'), text.indexOf('↓ never'))
    expect(block).toContain('s1.yaml:4: read')
    expect(block).toContain('GET http://doppel.test/v1/auth/cloud/role/missing')
    expect(block).toContain('x-service-token: root')
    const rows = block.split('\n').filter((line) => line.includes('│'))
    expect(rows[0]).toMatch(/│ status 200 +│ status 404 +│/)
    expect(rows.some((row) => /│ {3}"data": \{ +│ {3}"errors": \[\] +│/.test(row))).toBe(true)
    expect(new Set(rows.map((row) => row.length)).size).toBe(1)
    expect(block).toContain('• status: expected 200, got 404')
    expect(block).toContain('• $.data: expected {"auth_type":"ec2"}, but it is absent')
  })

  it('prints each scenario as a block when several run at once', async () => {
    let text = ''
    await sampleRun({ name: 'pretty', write: (s) => (text += s) }, 3)
    for (const name of ['passes', 'fails', 'skipped']) expect(text).toContain(`● ${name}`)
    const failsBlock = text.slice(text.indexOf('● fails'))
    expect(failsBlock.indexOf('✗ read')).toBeLessThan(failsBlock.indexOf('↓ never'))
    expect(text.trimEnd().split('\n').at(-1)).toBe('1 passed, 1 failed, 1 skipped')
  })
})

describe('JUnit reporter', () => {
  it('writes well-formed XML with suites per scenario, cases per step, failures and skips', async () => {
    let xml = ''
    await sampleRun({ name: 'junit', write: (s) => (xml += s) })
    const root = parseXml(xml)
    expect(root.name).toBe('testsuites')
    expect(root.attributes).toMatchObject({ name: 'doppel', tests: '4', failures: '1', skipped: '2' })
    const suites = root.children
    expect(suites.map((s) => s.attributes.name)).toEqual(['passes & "quotes" <ok>', 'fails', 'skipped'])
    const [read, never] = suites[1]!.children
    expect(read!.attributes).toMatchObject({ name: 'read', file: 's1.yaml', line: '4', classname: 'fails' })
    const failure = read!.children[0]!
    expect(failure.name).toBe('failure')
    expect(failure.attributes.message).toBe('status: expected 200, got 404; $.data: expected {"auth_type":"ec2"}, but it is absent')
    expect(failure.text).toContain('GET http://doppel.test/v1/auth/cloud/role/missing')
    expect(never!.children[0]).toMatchObject({ name: 'skipped', attributes: { message: 'not run: step "read" failed' } })
    expect(suites[2]!.children[0]!.children[0]!.attributes.message).toBe('target "emulator" lacks capability "mounts"')
  })

  it('drops characters XML cannot carry and escapes the rest', async () => {
    const result = await sampleRun()
    result.scenarios[1]!.steps[0]!.title = 'a\u0001b <c> & "d"\nnext'
    const root = parseXml(toJunitXml(result))
    expect(root.children[1]!.children[0]!.attributes.name).toBe('ab <c> & "d"\nnext')
  })
})

describe('JSON and TAP reporters', () => {
  it('JSON: one document with the summary and every step', async () => {
    let text = ''
    await sampleRun({ name: 'json', write: (s) => (text += s) })
    const report = JSON.parse(text)
    expect(report.summary).toEqual({ passed: 1, failed: 1, skipped: 1, text: '1 passed, 1 failed, 1 skipped' })
    expect(report.scenarios[1].steps[0]).toMatchObject({ title: 'read', verdict: 'failed', observed: { status: 404, body: { errors: [] } } })
    expect(report.scenarios[2]).toMatchObject({ verdict: 'skipped', reason: 'target "emulator" lacks capability "mounts"' })
  })

  it('TAP 14: a point per scenario with the steps as a subtest, SKIP directives and YAML diagnostics', async () => {
    let text = ''
    await sampleRun({ name: 'tap', write: (s) => (text += s) })
    const lines = text.trimEnd().split('\n')
    expect(lines.slice(0, 2)).toEqual(['TAP version 14', '1..3'])
    expect(lines).toContain('# Subtest: passes & "quotes" <ok>')
    expect(lines).toContain('ok 1 - passes & "quotes" <ok>')
    expect(lines).toContain('    not ok 1 - read')
    expect(lines).toContain('        - "status: expected 200, got 404"')
    expect(lines).toContain('    ok 2 - never # SKIP not run: step "read" failed')
    expect(lines).toContain('not ok 2 - fails')
    expect(lines).toContain('ok 3 - skipped # SKIP target "emulator" lacks capability "mounts"')
    expect(lines.at(-1)).toBe('# 1 passed, 1 failed, 1 skipped')
    const plan = lines.indexOf('    1..2', lines.indexOf('# Subtest: fails'))
    expect(plan).toBeGreaterThan(0)
  })
})

interface XmlElement {
  name: string
  attributes: Record<string, string>
  children: XmlElement[]
  text: string
}

/**
 * A tiny, strict XML well-formedness check and reader: one root, balanced tags, quoted attributes,
 * only the five predefined entities and numeric references, no raw `<` or `&` in text. Throws on
 * anything else. Enough to prove a CI system can read the report.
 */
function parseXml(xml: string): XmlElement {
  let i = 0
  const decode = (raw: string) => {
    if (/&(?!(amp|lt|gt|quot|apos|#\d+|#x[0-9a-f]+);)/i.test(raw)) throw new Error(`bad entity in ${JSON.stringify(raw)}`)
    if (raw.includes('<')) throw new Error(`raw < in ${JSON.stringify(raw)}`)
    if (/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/.test(raw)) throw new Error('control character')
    return raw.replace(/&(amp|lt|gt|quot|apos|#\d+|#x[0-9a-f]+);/gi, (_, e: string) => {
      const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" }
      if (named[e]) return named[e]!
      return String.fromCodePoint(e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10))
    })
  }
  const skipSpace = () => {
    while (/\s/.test(xml[i] ?? '')) i++
  }
  const declaration = /^<\?xml [^?]*\?>/.exec(xml)
  if (!declaration) throw new Error('no XML declaration')
  i = declaration[0].length
  skipSpace()
  const element = (): XmlElement => {
    const open = /^<([A-Za-z_][\w.-]*)/.exec(xml.slice(i))
    if (!open) throw new Error(`expected an element at ${i}`)
    i += open[0].length
    const node: XmlElement = { name: open[1]!, attributes: {}, children: [], text: '' }
    for (;;) {
      skipSpace()
      if (xml.startsWith('/>', i)) {
        i += 2
        return node
      }
      if (xml[i] === '>') {
        i++
        break
      }
      const attribute = /^([A-Za-z_][\w.-]*)="([^"]*)"/.exec(xml.slice(i))
      if (!attribute) throw new Error(`bad attribute at ${i}: ${xml.slice(i, i + 30)}`)
      if (attribute[1]! in node.attributes) throw new Error(`duplicate attribute ${attribute[1]}`)
      node.attributes[attribute[1]!] = decode(attribute[2]!)
      i += attribute[0].length
    }
    for (;;) {
      const next = xml.indexOf('<', i)
      if (next === -1) throw new Error(`unclosed <${node.name}>`)
      node.text += decode(xml.slice(i, next))
      i = next
      if (xml.startsWith(`</${node.name}>`, i)) {
        i += node.name.length + 3
        return node
      }
      if (xml.startsWith('</', i)) throw new Error(`mismatched close tag at ${i}`)
      node.children.push(element())
    }
  }
  const root = element()
  skipSpace()
  if (i !== xml.length) throw new Error('content after the root element')
  return root
}
