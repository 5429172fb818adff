/**
 * YAML scenarios and fixtures: one engine that replays flows against the in-process emulator or a real
 * server, with the same files and the same verdicts.
 *
 * @module doppel/scenario
 */
export { loadScenarioFile, parseScenario } from './load/parse-scenario.ts'
export { findScenarioFiles } from './load/find-scenario-files.ts'
export { runScenarios, type RunOptions, type RunEvents } from './runner/run-scenarios.ts'
export { runScenario, type ScenarioRunOptions } from './runner/run-scenario.ts'
export { planSkips, type Plan } from './runner/plan.ts'
export { parseLabelExpression, LabelExpressionError } from './runner/labels.ts'
export { createTarget, type TargetConfig } from './targets/create-target.ts'
export { createEmulatorTarget, type EmulatorTargetOptions } from './targets/emulator-target.ts'
export { createHttpTarget, type HttpTargetOptions } from './targets/http-target.ts'
export { loadTargetsFile, type TargetsFile } from './targets/targets-file.ts'
export { signedCallerIdentity, type CallerIdentityOptions, type IamLoginPayload } from './targets/caller-identity.ts'
export { TargetError, TargetUnreachableError, type Target, type TargetInfo, type TargetSession, type TargetControl } from './targets/target.ts'
export { loadFixtures, loadFixtureFile, type Fixture, type FixtureSummary, type FixtureSource, type LoadFixturesOptions } from '../../features/fixtures/index.ts'
export { ScenarioError, FixtureError, formatIssue, type ScenarioIssue } from '../../features/documents/index.ts'
export { createReporter, prettyReporter, junitReporter, jsonReporter, tapReporter, toJunitXml, toJsonReport, toTap, summaryLine, REPORTERS, type ReporterName } from './reporters/index.ts'
export { runSuite, EXIT, type SuiteOptions } from './run-suite.ts'
export { MATCHERS } from './expect/matchers.ts'
export type {
  Capability,
  Scenario,
  Step,
  StepResult,
  ScenarioResult,
  RunResult,
  Verdict,
  Mismatch,
  Observed,
} from './glossary.ts'
