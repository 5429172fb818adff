import type { RunEvents } from '../runner/run-scenarios.ts'
import { jsonReporter } from './json-reporter.ts'
import { junitReporter } from './junit-reporter.ts'
import { prettyReporter } from './pretty-reporter.ts'
import { tapReporter } from './tap-reporter.ts'

export { prettyReporter } from './pretty-reporter.ts'
export { junitReporter, toJunitXml } from './junit-reporter.ts'
export { jsonReporter, toJsonReport } from './json-reporter.ts'
export { tapReporter, toTap } from './tap-reporter.ts'
export { summaryLine } from './summary-line.ts'
export { formatFailure } from './format-failure.ts'

/** The `--reporter` choices. */
export const REPORTERS = ['pretty', 'junit', 'json', 'tap'] as const
export type ReporterName = (typeof REPORTERS)[number]

/** A reporter by name, writing its output through `write`. */
export function createReporter(name: ReporterName, write: (text: string) => void): RunEvents {
  switch (name) {
    case 'pretty':
      return prettyReporter(write)
    case 'junit':
      return junitReporter(write)
    case 'json':
      return jsonReporter(write)
    case 'tap':
      return tapReporter(write)
  }
}
