import { readFileSync } from 'node:fs'
import { relative, resolve, sep } from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'
import { typescriptFiles } from './typescript-files.ts'

// The core knows only itself (docs/architecture.md): no name it declares or uses speaks of a service or a
// feature above it. A service's concept belongs to the service, which hands it down through a generic
// mechanism (its options under its name, a named shared pool, its own error codes).

const CORE = resolve(import.meta.dirname, '../../src/core')
/** Words of the floors above, matched against each word of an identifier (`imdsListeners` → imds, listeners). */
const SERVICE_WORDS = /^(imds|sha1|ec2|sts|iam|aws|cloud|registry|terraform|tenants?|login|nonce|fixtures?)$/i


/** The identifiers of `text` (comments and strings are prose, not names) that hold a service word. */
function serviceIdentifiers(text: string): string[] {
  const found: string[] = []
  const visit = (node: ts.Node): void => {
    if (ts.isIdentifier(node) || ts.isPrivateIdentifier(node)) {
      const words = node.text.replace(/^#/, '').split(/(?<=[a-z0-9])(?=[A-Z])|[_$]/)
      if (words.some((word) => SERVICE_WORDS.test(word))) found.push(node.text)
    }
    ts.forEachChild(node, visit)
  }
  visit(ts.createSourceFile('core.ts', text, ts.ScriptTarget.Latest, true))
  return found
}

describe("the core's names", () => {
  it('name no concept of a service or a feature', () => {
    const found = typescriptFiles(CORE).flatMap((file) => serviceIdentifiers(readFileSync(file, 'utf8')).map((name) => `src/core/${relative(CORE, file).split(sep).join('/')}: ${name}`))
    expect(found).toEqual([])
  })

  it('are read word by word from identifiers, not from comments or strings', () => {
    const planted = [
      'export interface SharedLimits { imdsListeners: Pool }',
      'const DEFAULT_IMDS_LISTENER_LIMIT = 64',
      'function allowSha1(): boolean { return true }',
      'class X { #tenantCount = 0 }',
      "// the fake cloud's pool, named by the cloud",
      "const text = 'cloud registry tenant'",
      'const clouded = 1',
    ].join('\n')
    expect(serviceIdentifiers(planted)).toEqual(['imdsListeners', 'DEFAULT_IMDS_LISTENER_LIMIT', 'allowSha1', '#tenantCount'])
  })
})
