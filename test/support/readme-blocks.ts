import { readFileSync } from 'node:fs'

/** The fenced code blocks of README.md (or another Markdown file of the repository) with the given info string, in order. */
export function readmeBlocks(language: string, file = 'README.md'): string[] {
  const readme = readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8')
  const fence = new RegExp('^```' + language + '\\n([\\s\\S]*?)^```$', 'gm')
  return [...readme.matchAll(fence)].map((match) => match[1]!)
}

/** README's first TypeScript block: Quickstart 1, which users paste into a test file. */
export function readmeQuickstart(): string {
  const [block] = readmeBlocks('ts')
  if (block === undefined) throw new Error('README.md has no ```ts block')
  return block
}
