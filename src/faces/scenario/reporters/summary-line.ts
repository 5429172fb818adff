import type { RunResult } from '../glossary.ts'

/** The last line of every run: `N passed, N failed, N skipped`, counted in scenarios. */
export function summaryLine(result: Pick<RunResult, 'passed' | 'failed' | 'skipped'>): string {
  return `${result.passed} passed, ${result.failed} failed, ${result.skipped} skipped`
}
