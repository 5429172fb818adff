/** What files users write share: YAML with line locations, the shipped schemas and their validator, `file:line` issues. */
export { ScenarioError, FixtureError, formatIssue, type ScenarioIssue, LISTED_ISSUES } from './document-error.ts'
export { literalJson, literalText, hasTemplate, TEMPLATE_OPEN, findTemplate } from './template-marker.ts'
export { SCHEMAS } from './shipped-schemas.ts'
export type { Locate, ValuePath } from './glossary.ts'
export { formatPath } from './format-path.ts'
export { validateAgainstSchema, type SchemaIssue } from './schema-validator.ts'
export { parseYamlSource } from './yaml-source.ts'
export { OFF_THREAD_SIZE, parseOffThread, parseJsonOffThread } from './parse-off-thread.ts'
