import { DoppelError, type DoppelErrorCode } from '../../core/doppel-error.ts'

/** One problem in a scenario, fixture or targets file, at a line. */
export interface ScenarioIssue {
  file: string
  /** 1-based; 0 when the source had no lines (an object passed in code). */
  line: number
  message: string
}

/** `file:line: message`, or `file: message` when there is no line. */
export function formatIssue(issue: ScenarioIssue): string {
  return issue.line > 0 ? `${issue.file}:${issue.line}: ${issue.message}` : `${issue.file}: ${issue.message}`
}

/** A refusal lists this many problems at most, then how many more there are: a person fixes a few dozen at a time. */
export const LISTED_ISSUES = 30

/** The first `LISTED_ISSUES` of `issues`, and a last line counting the rest of the `total` found. */
function listed(issues: ScenarioIssue[], total: number): ScenarioIssue[] {
  const shown = issues.slice(0, LISTED_ISSUES)
  const more = Math.max(total, issues.length) - shown.length
  if (more === 0 || shown.length === 0) return shown
  return [...shown, { file: shown[0]!.file, line: 0, message: `and ${more} more problem${more === 1 ? '' : 's'}, not listed` }]
}

/**
 * An invalid scenario, fixture or targets file. Carries the issues found, each as `file:line: message`
 * (a few dozen at most, and a count of the rest), so a run can report them before running anything.
 */
export class ScenarioError extends DoppelError {
  override name = 'ScenarioError'
  readonly issues: ScenarioIssue[]

  /** `total`: how many problems were found, when only the first were given (their lines looked up). */
  constructor(issues: ScenarioIssue[], code: DoppelErrorCode = 'DOPPEL_INVALID_SCENARIO', total = issues.length) {
    const shown = listed(issues, total)
    super(code, shown.map(formatIssue).join('\n'))
    this.issues = shown
  }

  /** The issues as `file:line: message` lines. */
  lines(): string[] {
    return this.issues.map(formatIssue)
  }
}

/** A fixture that does not validate or that the services refused; nothing of it was loaded. */
export class FixtureError extends ScenarioError {
  override name = 'FixtureError'
  constructor(issues: ScenarioIssue[], total = issues.length) {
    super(issues, 'DOPPEL_INVALID_FIXTURE', total)
  }
}
