import fixtureSchema from '../scenario/schemas/fixture.schema.json' with { type: 'json' }
import scenarioSchema from '../scenario/schemas/scenario.schema.json' with { type: 'json' }
import targetsSchema from '../scenario/schemas/targets.schema.json' with { type: 'json' }
import type { SchemaRegistry } from './schema-validator.ts'

/** The shipped JSON Schemas, by file name: what editors use and what the validator checks. */
export const SCHEMAS: SchemaRegistry = {
  'scenario.schema.json': scenarioSchema as SchemaRegistry[string],
  'fixture.schema.json': fixtureSchema as SchemaRegistry[string],
  'targets.schema.json': targetsSchema as SchemaRegistry[string],
}
