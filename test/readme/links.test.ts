// Every relative link of README.md, CONTRIBUTING.md and docs/ names a file that exists and, with a
// `#fragment`, a heading of that file (GitHub's anchors: lower case, punctuation dropped, spaces as `-`).
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join, normalize } from 'node:path'
import { expect, it } from 'vitest'
import { documentedFiles } from '../support/readme-blocks.ts'

const ROOT = new URL('../../', import.meta.url).pathname

function anchors(file: string): Set<string> {
  const text = readFileSync(join(ROOT, file), 'utf8').replace(/^```[\s\S]*?^```$/gm, '')
  return new Set(
    [...text.matchAll(/^#{1,6} (.+)$/gm)].map((match) =>
      match[1]!.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/ /g, '-'),
    ),
  )
}

it('every relative link in the documentation resolves, fragments included', () => {
  const broken = documentedFiles().flatMap((file) => {
    const text = readFileSync(join(ROOT, file), 'utf8').replace(/^```[\s\S]*?^```$/gm, '')
    return [...text.matchAll(/\]\(([^)\s]+)\)/g)].flatMap((match) => {
      const link = match[1]!
      if (/^[a-z]+:/.test(link)) return []
      const [path, fragment] = link.split('#') as [string, string | undefined]
      const target = path === '' ? file : normalize(join(dirname(file), path))
      if (!existsSync(join(ROOT, target))) return [`${file}: ${link} (no such file)`]
      if (fragment !== undefined && target.endsWith('.md') && !anchors(target).has(fragment)) return [`${file}: ${link} (no such heading)`]
      return []
    })
  })
  expect(broken).toEqual([])
})

it("the guides' Next links follow the README's reading order", () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8')
  const guides = [...readme.matchAll(/^\d+\. \[[^\]]+\]\(docs\/([\w-]+\.md)\)/gm)].map((match) => match[1]!)
  expect(guides.length).toBeGreaterThan(5)
  const next = guides.map((guide) => /Next: \[[^\]]+\]\(([\w-]+\.md)\)/.exec(readFileSync(join(ROOT, 'docs', guide), 'utf8'))?.[1])
  expect(next).toEqual([...guides.slice(1), undefined])
})
