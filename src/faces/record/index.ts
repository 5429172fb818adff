/**
 * `doppel record` and `doppel compare`: a forwarding proxy whose exchanges become replayable scenarios,
 * or are compared with the emulator's answers to the same requests.
 */
export { forwardingProxy, STOP_PATH, type ForwardingProxyOptions } from './forwarding-proxy.ts'
export { buildScenario, type BuildOptions, type ScenarioDocument } from './scenario-builder.ts'
export { writeScenarios, SPLIT_RULES, type SplitRule, type WriteOptions } from './write-scenarios.ts'
export type { Exchange } from './exchange.ts'
