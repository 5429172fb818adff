/**
 * What other units and doppel's own tests use of the scenario engine beyond its published entry point
 * (`index.ts` is `doppel/scenario`, and stays the public surface): JSON paths, templates, matchers, the
 * HTTP exchange and the failure lines.
 */
export { formatJsonPath, JsonPathError, parseJsonPath, queryJsonPath, type JsonPath } from './expressions/json-path.ts'
export { explanationLines } from './reporters/format-failure.ts'
export { realServerStates, realServerSummary } from './runner/real-server-labels.ts'
export { buildRequest, observeResponse } from './runner/http-exchange.ts'
export { collectPaths, parseExpression, render, TemplateError, type Scope } from './expressions/template.ts'
export { checkExpectation } from './expect/check-expectation.ts'
export { matchValue, type MatchOptions } from './expect/matchers.ts'
