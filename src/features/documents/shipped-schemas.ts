import { readFileSync } from 'node:fs'
import { packageFile } from '../../core/package-files.ts'
import type { SchemaRegistry } from './schema-validator.ts'

// The schemas live in the package's top-level schemas/ folder, the path scenario files name for editors and
// `doppel/schemas/*` exports; src/ and dist/ both sit one level below it.
const shipped = (name: string) => JSON.parse(readFileSync(packageFile(`schemas/${name}`), 'utf8')) as SchemaRegistry[string]

/** The shipped JSON Schemas, by file name: what editors use and what the validator checks. */
export const SCHEMAS: SchemaRegistry = {
  'scenario.schema.json': shipped('scenario.schema.json'),
  'fixture.schema.json': shipped('fixture.schema.json'),
  'targets.schema.json': shipped('targets.schema.json'),
}
