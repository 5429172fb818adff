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

/**
 * An invalid scenario, fixture or targets file. Carries every issue found, each as `file:line: message`,
 * so a run can report them all before running anything.
 */
export class ScenarioError extends DoppelError {
  override name = 'ScenarioError'
  readonly issues: ScenarioIssue[]

  constructor(issues: ScenarioIssue[], code: DoppelErrorCode = 'DOPPEL_INVALID_SCENARIO') {
    super(code, issues.map(formatIssue).join('\n'))
    this.issues = issues
  }

  /** The issues as `file:line: message` lines. */
  lines(): string[] {
    return this.issues.map(formatIssue)
  }
}

/** A fixture that does not validate or that the services refused; nothing of it was loaded. */
export class FixtureError extends ScenarioError {
  override name = 'FixtureError'
  constructor(issues: ScenarioIssue[]) {
    super(issues, 'DOPPEL_INVALID_FIXTURE')
  }
}
