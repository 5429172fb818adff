/** `doppel compare`'s core: the same requests to an in-process emulator, and where the answers differ. */
export { startComparison, type Comparison, type ComparisonOptions } from './comparison.ts'
export { differences, type Difference, type Answer } from './differences.ts'
export { formatReport, type Report, type ComparedExchange } from './report.ts'
