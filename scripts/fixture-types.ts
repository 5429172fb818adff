// `node scripts/fixture-types.ts`: writes src/features/fixtures/fixture-document.ts, the TypeScript type of a
// fixture, from schemas/fixture.schema.json, so an inline fixture is checked against the same schema a
// YAML one is. test/fixtures/fixture-types.test.ts fails when the two differ.
import { writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { compileFromFile } from 'json-schema-to-typescript'

const root = new URL('../', import.meta.url)
export const SCHEMA = fileURLToPath(new URL('schemas/fixture.schema.json', root))
export const TARGET = fileURLToPath(new URL('src/features/fixtures/fixture-document.ts', root))

const BANNER = `// Generated from schemas/fixture.schema.json by \`node scripts/fixture-types.ts\`: edit the schema, then run it.
`

/** The generated module's text. */
export async function fixtureTypes(): Promise<string> {
  return compileFromFile(SCHEMA, { bannerComment: BANNER, additionalProperties: false, cwd: fileURLToPath(new URL('schemas/', root)) })
}

if (process.argv[1] === fileURLToPath(import.meta.url)) writeFileSync(TARGET, await fixtureTypes())
