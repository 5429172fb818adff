import { Ajv2020 } from 'ajv/dist/2020.js'
import { describe, expect, it } from 'vitest'
import { createDoppel } from '../../src/features/doppel/index.ts'
import { FixtureError, loadFixtures } from '../../src/faces/scenario/index.ts'
import { SCHEMAS } from '../../src/features/documents/index.ts'

async function problems(text: string): Promise<string[]> {
  try {
    await loadFixtures(createDoppel(), text, 'f.yaml')
  } catch (error) {
    if (error instanceof FixtureError) return error.lines()
    throw error
  }
  throw new Error('the fixture was accepted')
}

describe('the shipped JSON Schemas', () => {
  // The validator skips the meta-schema check at start-up, so it is made here.
  it.each(Object.keys(SCHEMAS))('%s is a valid draft 2020-12 schema', (name) => {
    const ajv = new Ajv2020({ strict: false })
    expect(ajv.validateSchema(SCHEMAS[name]!), JSON.stringify(ajv.errors)).toBe(true)
  })

  it('explains an anyOf by the branch of the right type, in document order, and a wrong type by the types allowed', async () => {
    expect(await problems('registry:\n  organizations:\n    - acme\n    - { nam: acme }\n    - [1]\n  modules: [soon]\n')).toEqual([
      'f.yaml:4: registry.organizations[1]: missing required key "name"',
      'f.yaml:4: registry.organizations[1].nam: unknown key "nam" (did you mean "name"?)',
      'f.yaml:5: registry.organizations[2]: must be a string or a mapping, not a list',
      'f.yaml:6: registry.modules[0]: must be a mapping, not a string',
    ])
  })

  it('gives one sentence for a schema with errorMessage, and refuses a bad key name once', async () => {
    expect(await problems('cloud:\n  principals:\n    - { type: user, account_id: 123456789012 }\nauth:\n  roles:\n    "a/b": { auth_typ: ec2 }\n')).toEqual([
      'f.yaml:3: cloud.principals[0].account_id: must be a quoted string of 12 digits (YAML reads an unquoted one as a number)',
      expect.stringMatching(/^f\.yaml:6: auth\.roles\["a\/b"\]: key "a\/b" must match /),
    ])
  })
})
