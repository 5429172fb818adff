/**
 * `doppel record` and `doppel compare`: a forwarding proxy whose exchanges become replayable scenarios,
 * or are compared with the emulator's answers to the same requests.
 */
export { BODY_LIMIT, forwardingProxy, type ForwardingProxyOptions } from './forwarding-proxy.ts'
export { buildScenario, type BuildOptions, type ScenarioDocument } from './scenario-builder.ts'
export { RecordingFiles, RecordingOutError, SPLIT_RULES, type SplitRule, type RecordingOptions } from './recording-files.ts'
export type { Exchange } from './exchange.ts'
export { readStartingState, StartingStateError } from './starting-state.ts'
export { startComparison, type Comparison, type ComparisonOptions } from './compare/index.ts'
export { iamSigning } from './iam-signing.ts'
export { formatReport } from './compare/report.ts'
export { SECRET_HEADERS } from './secrets.ts'
