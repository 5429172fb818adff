import { readFileSync } from 'node:fs'
import { relative, resolve, sep } from 'node:path'
import { describe, expect, it } from 'vitest'
import { strayPathLiterals } from './path-literals.ts'
import { typescriptFiles } from './typescript-files.ts'

// Each prefix and host name of doppel's URLs is written once, in the module that owns it (a service's
// urls.ts, the tenants' names); everyone else builds paths with its builders or mounts rows on its prefix.

const SRC = resolve(import.meta.dirname, '../../src')


describe("doppel's path and host literals", () => {
  it('appear only in the modules that own them', () => {
    const stray = typescriptFiles(SRC).flatMap((file) => {
      const path = relative(SRC, file).split(sep).join('/')
      return strayPathLiterals(path, readFileSync(file, 'utf8')).map(({ piece, line, text }) => `src/${path}:${line} writes ${piece} in ${JSON.stringify(text)}`)
    })
    expect(stray).toEqual([])
  })

  it('are found in strings, templates and regular expressions, not in comments, module specifiers or help', () => {
    const planted = [
      "const a = '/v1/auth/cloud/login'",
      'const b = `${base}/_doppel/fixtures`',
      'const c = `${x}/t/${name}`',
      'const d = /^\\/api\\/v2\\//',
      "const e = 'https://sts.us-east-1.amazonaws.com'",
      "// '/v1/auth/cloud/login' in a comment",
      "/** `POST /_doppel/fixtures` */",
      "import { x } from './api/x.ts'",
      'export const SERVE_USAGE = `Usage: GET /_doppel/health`',
      "const f = '/api/registry/v1/modules/'",
      "const g = 'https://checkpoint-api.hashicorp.com/v1/versions/'",
      "const FLAGS = { port: { type: 'string', help: 'Also opens the control API (/_doppel/*)' } }",
    ].join('\n')
    const found = strayPathLiterals('faces/somewhere.ts', planted).map(({ piece, line }) => `${line} ${piece}`)
    expect(found).toEqual(['1 /v1/', '2 /_doppel/', '3 /t/', '4 /api/', '5 amazonaws.com', '10 /api/'])
    expect(strayPathLiterals('services/cloud-auth/urls.ts', "const p = '/v1/'")).toEqual([])
    expect(strayPathLiterals('services/fake-cloud/regions.ts', "const s = 'amazonaws.com'")).toEqual([])
  })
})
