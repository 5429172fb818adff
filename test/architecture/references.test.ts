import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join, relative, sep } from 'node:path'
import { describe, expect, it } from 'vitest'

// Every citation of the reference notes names a page of docs/reference/ and a numbered heading in it, in the
// one form `docs/reference/<file>.md §<number>`, so a reader can follow it.

const ROOT = join(import.meta.dirname, '../..')
const REFERENCE_DIR = 'docs/reference/'
const SCANNED = ['src', 'test', 'bench', 'scripts', 'docs', 'conformance', 'scenarios', 'schemas']
const TEXT = /\.(ts|mts|js|mjs|cjs|md|ya?ml|json)$/
const THIS_FILE = 'test/architecture/references.test.ts'

const CITATION = /docs\/reference\/([\w-]+)\.md §(\d+(?:\.\d+)*)/g
/** A `§` before a number that the full form does not introduce (inside the reference pages: their own sections). */
// A section of an RFC (`RFC 5280 §4.1.2.5`) is a citation of that standard, not of these notes.
const BARE = /(?<!docs\/reference\/[\w-]+\.md |RFC \d+ )§(?=\d)/g
const OLD_FORMS = [
  /shared\/reference/g,
  /(?<!docs\/)\breference\/(cloud-auth|registry|fake-cloud|scenario-format)\b/g,
  /\breference (cloud-auth|registry|fake-cloud|scenario-format)\b/gi,
]

/** The numbered headings of a reference page: `## 4. Login…` gives `4`, `### 3.7 …` gives `3.7`. */
function sectionsOf(text: string): Set<string> {
  return new Set([...text.matchAll(/^#{2,4} (\d+(?:\.\d+)*)\.?\s/gm)].map((match) => match[1]!))
}

const lineAt = (text: string, index: number) => text.slice(0, index).split('\n').length

/**
 * Text a published document carries as released (the OpenAPI document stays byte-identical): not a
 * citation for a maintainer, who finds the real one in the comment above it.
 */
const PUBLISHED = new Map([['src/services/cloud-auth/openapi/auth-schemas.ts', "'The auth service response envelope (reference §1.5)'"]])

/** Every citation that does not resolve, and every citation in another form, as `path:line: problem`. */
function citationBreaks(files: { path: string; text: string }[], pages: Map<string, Set<string>>): string[] {
  return files.flatMap(({ path, text: original }) => {
    const published = PUBLISHED.get(path)
    const text = published ? original.replace(published, (kept) => ' '.repeat(kept.length)) : original
    const breaks: string[] = []
    const at = (index: number, problem: string) => breaks.push(`${path}:${lineAt(text, index)}: ${problem}`)
    const resolve = (page: string, section: string, index: number) => {
      const sections = pages.get(page)
      if (!sections) at(index, `cites ${REFERENCE_DIR}${page}.md, which does not exist`)
      else if (!sections.has(section)) at(index, `cites ${REFERENCE_DIR}${page}.md §${section}, which has no such heading`)
    }
    for (const match of text.matchAll(CITATION)) resolve(match[1]!, match[2]!, match.index)
    const ownPage = path.startsWith(REFERENCE_DIR) ? path.slice(REFERENCE_DIR.length, -'.md'.length) : undefined
    for (const match of text.matchAll(BARE)) {
      const section = /^§(\d+(?:\.\d+)*)/.exec(text.slice(match.index))![1]!
      if (ownPage) resolve(ownPage, section, match.index)
      else at(match.index, `cites §${section} without naming its page: write ${REFERENCE_DIR}<file>.md §${section}`)
    }
    for (const pattern of OLD_FORMS) {
      for (const match of text.matchAll(pattern)) at(match.index, `cites the notes as "${match[0]}": write ${REFERENCE_DIR}<file>.md §<number>`)
    }
    return breaks
  })
}

function textFiles(dir: string): string[] {
  if (!existsSync(dir)) return []
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) return []
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return textFiles(path)
    return TEXT.test(entry.name) ? [path] : []
  })
}

const repoPath = (path: string) => relative(ROOT, path).split(sep).join('/')

function referencePages(): Map<string, Set<string>> {
  const dir = join(ROOT, REFERENCE_DIR)
  return new Map(
    readdirSync(dir)
      .filter((name) => name.endsWith('.md') && name !== 'README.md')
      .map((name) => [name.slice(0, -'.md'.length), sectionsOf(readFileSync(join(dir, name), 'utf8'))]),
  )
}

describe('references', () => {
  it('docs/reference/ holds the four pages, each with numbered sections', () => {
    const pages = referencePages()
    expect([...pages.keys()].sort()).toEqual(['cloud-auth', 'fake-cloud', 'registry', 'scenario-format'])
    for (const sections of pages.values()) expect(sections.size).toBeGreaterThan(3)
  })

  it('every citation in the repository names an existing page and heading, in the one form', () => {
    const paths = [...SCANNED.flatMap((dir) => textFiles(join(ROOT, dir))), ...readdirSync(ROOT).filter((name) => name.endsWith('.md')).map((name) => join(ROOT, name))]
    const files = paths.map((path) => ({ path: repoPath(path), text: readFileSync(path, 'utf8') })).filter(({ path }) => path !== THIS_FILE)
    expect(files.filter(({ text }) => text.includes('docs/reference/')).length).toBeGreaterThan(100)
    expect(citationBreaks(files, referencePages())).toEqual([])
  })

  it('catches a missing page, a missing heading, a bare or old-form citation, and resolves a page’s own bare sections', () => {
    const pages = new Map([['cloud-auth', sectionsOf('## 3. Endpoints\n### 3.7 `role/:role`\n## 11. Spec versus Vault\n')]])
    const file = (path: string, text: string) => ({ path, text })
    expect(
      citationBreaks(
        [
          file('src/a.ts', '// docs/reference/cloud-auth.md §3.7 step 7 and docs/reference/cloud-auth.md §11'),
          file('src/b.ts', '// docs/reference/cloud-auth.md §3.8\n// docs/reference/registry.md §1.5'),
          file('src/c.ts', '/** role write (reference §3.7), then (§11) */'),
          file('conformance/d.yaml', 'desc: reference cloud-auth §3.7 and `reference/registry.md`, see shared/reference'),
          file('docs/reference/cloud-auth.md', 'as in §3.7 and §4'),
          file('src/e.ts', '// UTCTime up to 2049 (RFC 5280 §4.1.2.5)'),
        ],
        pages,
      ),
    ).toEqual([
      'src/b.ts:1: cites docs/reference/cloud-auth.md §3.8, which has no such heading',
      'src/b.ts:2: cites docs/reference/registry.md, which does not exist',
      'src/c.ts:1: cites §3.7 without naming its page: write docs/reference/<file>.md §3.7',
      'src/c.ts:1: cites §11 without naming its page: write docs/reference/<file>.md §11',
      'conformance/d.yaml:1: cites §3.7 without naming its page: write docs/reference/<file>.md §3.7',
      'conformance/d.yaml:1: cites the notes as "shared/reference": write docs/reference/<file>.md §<number>',
      'conformance/d.yaml:1: cites the notes as "reference/registry": write docs/reference/<file>.md §<number>',
      'conformance/d.yaml:1: cites the notes as "reference cloud-auth": write docs/reference/<file>.md §<number>',
      'docs/reference/cloud-auth.md:1: cites docs/reference/cloud-auth.md §4, which has no such heading',
    ])
  })
})
