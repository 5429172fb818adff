import { readFileSync } from 'node:fs'
import { ACTIONS, type ActionName, type Capability, type Locate, type Scenario, type Step, type ValuePath } from '../glossary.ts'
import { parseDuration } from '../../../core/duration.ts'
import { validateExpectation, stripBraces } from '../expect/validate-expectation.ts'
import { JsonPathError, parseJsonPath } from '../expressions/json-path.ts'
import { hasTemplate, parseTemplate, TemplateError, type PathOperand } from '../expressions/template.ts'
import { ScenarioError, type ScenarioIssue, formatPath, SCHEMAS, validateAgainstSchema, parseYamlSource } from '../../../features/documents/index.ts'

/** The names `${{ target.<name> }}` offers. */
const TARGET_FIELDS = ['name', 'kind', 'mount', 'token', 'registryToken', 'tokenHeader', 'baseUrl', 'registryUrl', 'profile', 'serverIdHeader', 'badInputStatus'] as const

const RUN_FIELDS = ['id']

/** Reads and validates one scenario file. Throws ScenarioError listing every problem as `file:line: message`. */
export function loadScenarioFile(path: string, displayName = path): Scenario {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (error) {
    throw new ScenarioError([{ file: displayName, line: 0, message: `cannot read the file: ${(error as Error).message}` }])
  }
  return parseScenario(text, displayName)
}

/** Parses and validates scenario YAML. Throws ScenarioError listing every problem as `file:line: message`. */
export function parseScenario(text: string, file: string): Scenario {
  const source = parseYamlSource(text, file)
  if (source.issues.length > 0) throw new ScenarioError(source.issues)
  const value = source.value
  const issue = (path: ValuePath, message: string, at: 'key' | 'value' = 'value'): ScenarioIssue => ({
    file,
    line: source.locate(path, at),
    message: path.length > 0 ? `${formatPath(path)}: ${message}` : message,
  })
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ScenarioError([{ file, line: 1, message: 'a scenario must be a mapping with version, name and steps' }])
  }
  const schemaIssues = validateAgainstSchema(value, SCHEMAS, 'scenario.schema.json')
  if (schemaIssues.length > 0) throw new ScenarioError(schemaIssues.map((i) => issue(i.path, i.message, i.at)))
  const raw = value as RawScenario
  const issues: ScenarioIssue[] = []
  const checker = new ReferenceChecker(issues, issue)

  const varNames: string[] = []
  for (const [name, varValue] of Object.entries(raw.vars ?? {})) {
    checker.check(varValue, ['vars', name], { vars: [...varNames], steps: undefined })
    varNames.push(name)
  }
  if (raw.fixtures !== undefined) checker.check(raw.fixtures, ['fixtures'], { vars: varNames, steps: undefined })

  const declared: string[] = []
  const seenIds = new Map<string, ValuePath>()
  const buildSteps = (phase: 'steps' | 'finally', list: RawStep[]): Step[] =>
    list.map((rawStep, index) => {
      const path: ValuePath = [phase, index]
      const step = buildStep(rawStep, phase, index, path, source.locate)
      if (step.id !== undefined) {
        if (seenIds.has(step.id)) issues.push(issue([...path, 'id'], `step id "${step.id}" is already used`))
        seenIds.set(step.id, path)
      }
      const deps = new Set<string>()
      for (const [key, part] of Object.entries(rawStep)) {
        if (key === 'id' || key === 'desc' || key === 'requires' || key === 'capture') continue
        checker.check(part, [...path, key], { vars: varNames, steps: declared }, deps)
      }
      checkStep(rawStep, path, issues, issue, checker, varNames, declared, deps)
      step.dependsOn = [...deps]
      if (step.id !== undefined) declared.push(step.id)
      return step
    })
  const steps = buildSteps('steps', raw.steps)
  const cleanup = buildSteps('finally', raw.finally ?? [])
  if (issues.length > 0) throw new ScenarioError(issues.sort((a, b) => a.line - b.line))
  return {
    file,
    name: raw.name,
    ...(raw.desc !== undefined && { desc: raw.desc }),
    labels: raw.labels ?? [],
    requires: raw.requires ?? [],
    vars: Object.entries(raw.vars ?? {}),
    ...(raw.fixtures !== undefined && { fixtures: raw.fixtures }),
    steps,
    finally: cleanup,
    locate: source.locate,
  }
}

interface RawScenario {
  name: string
  desc?: string
  labels?: string[]
  requires?: Capability[]
  vars?: Record<string, unknown>
  fixtures?: unknown
  steps: RawStep[]
  finally?: RawStep[]
}

type RawStep = Record<string, unknown> & {
  id?: string
  desc?: string
  requires?: Capability[]
  expect?: RawExpect
  capture?: Record<string, string>
  retry?: { count: number; interval?: string | number; until?: RawExpect }
}

interface RawExpect {
  status?: unknown
  headers?: Record<string, unknown>
  body?: unknown
  match?: 'subset' | 'exact'
}

function buildStep(raw: RawStep, phase: 'steps' | 'finally', index: number, path: ValuePath, locate: Locate): Step {
  const action = ACTIONS.find((name) => name in raw) as ActionName
  const args = raw[action]
  return {
    index,
    phase,
    ...(raw.id !== undefined && { id: raw.id }),
    ...(raw.desc !== undefined && { desc: raw.desc }),
    title: raw.id ?? raw.desc ?? describeAction(action, args),
    line: locate(path),
    action,
    args,
    ...(raw.expect !== undefined && { expect: raw.expect }),
    ...(raw.capture !== undefined && { capture: raw.capture }),
    requires: raw.requires ?? [],
    ...(raw.retry !== undefined && {
      retry: {
        count: raw.retry.count,
        intervalMs: raw.retry.interval === undefined ? 1000 : (durationMs(raw.retry.interval) ?? 0),
        ...(raw.retry.until !== undefined && { until: raw.retry.until }),
      },
    }),
    dependsOn: [],
    path,
  }
}

function describeAction(action: ActionName, args: unknown): string {
  if (action === 'request') {
    const request = args as { method?: string; path?: string; url?: string }
    return `${request.method ?? 'GET'} ${request.path ?? request.url}`
  }
  if (typeof args === 'string' || typeof args === 'number') return `${action} ${args}`
  return action
}

function checkStep(
  raw: RawStep,
  path: ValuePath,
  issues: ScenarioIssue[],
  issue: (path: ValuePath, message: string, at?: 'key' | 'value') => ScenarioIssue,
  checker: ReferenceChecker,
  varNames: string[],
  declared: string[],
  deps: Set<string>,
): void {
  const request = raw.request as Record<string, unknown> | undefined
  if (request) {
    const bodies = ['json', 'body', 'bodyBase64', 'form'].filter((key) => key in request)
    if (bodies.length > 1) issues.push(issue([...path, 'request', bodies[1]!], `give only one of json, body, bodyBase64 and form (found ${bodies.join(' and ')})`, 'key'))
  }
  const interval = raw.retry?.interval
  if (interval !== undefined && durationMs(interval) === undefined) {
    issues.push(issue([...path, 'retry', 'interval'], 'must be a duration such as 500ms or 1s (templates are not resolved here)'))
  }
  for (const [name, expression] of Object.entries(raw.capture ?? {})) {
    if (!expression.startsWith('$')) continue
    try {
      parseJsonPath(expression)
    } catch (error) {
      if (!(error instanceof JsonPathError)) throw error
      issues.push(issue([...path, 'capture', name], error.message))
    }
  }
  const expectations: [RawExpect | undefined, ValuePath][] = [
    [raw.expect, [...path, 'expect']],
    [raw.retry?.until, [...path, 'retry', 'until']],
  ]
  for (const [expect, at] of expectations) {
    if (!expect) continue
    for (const part of ['status', 'headers', 'body'] as const) {
      if (expect[part] === undefined) continue
      for (const problem of validateExpectation(expect[part], [...at, part])) issues.push(issue(problem.path, problem.message))
    }
    collectSameAs(expect, at, (reference, where) => {
      // Anything but a steps reference was already refused by the matcher check.
      if (stripBraces(reference).trim().startsWith('steps.')) checker.check(`\${{ ${stripBraces(reference)} }}`, where, { vars: varNames, steps: declared }, deps)
    })
  }
}

function collectSameAs(value: unknown, path: ValuePath, visit: (reference: string, path: ValuePath) => void): void {
  if (Array.isArray(value)) value.forEach((item, i) => collectSameAs(item, [...path, i], visit))
  else if (typeof value === 'object' && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      if (key === '$sameAs' && typeof item === 'string') visit(item, [...path, key])
      else collectSameAs(item, [...path, key], visit)
    }
  }
}

interface Visible {
  vars: string[]
  /** Step ids usable here; undefined where `steps.` may not appear at all. */
  steps: string[] | undefined
}

/** Checks every template inside a value: syntax, known names, and steps that run earlier. */
class ReferenceChecker {
  #issues: ScenarioIssue[]
  #issue: (path: ValuePath, message: string) => ScenarioIssue

  constructor(issues: ScenarioIssue[], issue: (path: ValuePath, message: string) => ScenarioIssue) {
    this.#issues = issues
    this.#issue = issue
  }

  check(value: unknown, path: ValuePath, visible: Visible, deps?: Set<string>): void {
    if (typeof value === 'string') {
      if (hasTemplate(value)) this.#checkText(value, path, visible, deps)
    } else if (Array.isArray(value)) {
      value.forEach((item, i) => this.check(item, [...path, i], visible, deps))
    } else if (typeof value === 'object' && value !== null) {
      for (const [key, item] of Object.entries(value)) {
        if (key === '$sameAs') continue
        if (hasTemplate(key)) this.#checkText(key, [...path, key], visible, deps)
        this.check(item, [...path, key], visible, deps)
      }
    }
  }

  #checkText(text: string, path: ValuePath, visible: Visible, deps?: Set<string>): void {
    try {
      for (const part of parseTemplate(text)) {
        if (typeof part === 'string') continue
        for (const operand of part.alternatives) if (operand.kind === 'path') this.#checkPath(operand, path, visible, deps)
      }
    } catch (error) {
      if (!(error instanceof TemplateError)) throw error
      this.#issues.push(this.#issue(path, error.message))
    }
  }

  #checkPath(operand: PathOperand, path: ValuePath, visible: Visible, deps?: Set<string>): void {
    const [first, second] = operand.segments
    const fail = (message: string) => this.#issues.push(this.#issue(path, message))
    switch (operand.root) {
      case 'vars':
        if (!visible.vars.includes(String(first))) {
          fail(`${operand.text}: no var "${String(first)}" is declared ${path[0] === 'vars' ? 'before this one' : 'under vars'}`)
        }
        break
      case 'steps':
        if (visible.steps === undefined) fail(`${operand.text}: steps cannot be used in ${String(path[0])}`)
        else if (!visible.steps.includes(String(first))) fail(`${operand.text}: no step with id "${String(first)}" runs before this one`)
        else if (second === undefined) fail(`${operand.text}: name a capture, e.g. steps.${String(first)}.<capture>`)
        else deps?.add(String(first))
        break
      case 'target':
        if (!(TARGET_FIELDS as readonly unknown[]).includes(first)) fail(`${operand.text}: unknown target field (one of ${TARGET_FIELDS.join(', ')})`)
        break
      case 'run':
        if (!RUN_FIELDS.includes(String(first))) fail(`${operand.text}: unknown run field (one of ${RUN_FIELDS.join(', ')})`)
        break
    }
  }
}

function durationMs(value: string | number): number | undefined {
  try {
    return parseDuration(value, { allowFraction: true }) * 1000
  } catch {
    return undefined
  }
}
