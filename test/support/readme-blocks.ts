import { readdirSync, readFileSync } from 'node:fs'

// A fence's info string is the block's language, then optionally `no-run: <why>` for a block the tests
// cannot run here (it needs Docker, the network, a real Vault): ```sh no-run: needs Docker

/** One fenced code block of a Markdown file. */
export interface DocBlock {
  file: string
  /** The 1-based line of the opening fence: the block's first line is `line + 1`. */
  line: number
  language: string
  /** Why the block is not run, when its fence says `no-run: <why>`. */
  noRun?: string
  body: string
}

const FENCE = /^```([^\n]*)\n([\s\S]*?)^```$/gm
const ROOT = new URL('../../', import.meta.url)

/** Every fenced block of a Markdown file of the repository (a path from its root), in order. */
export function docBlocks(file: string): DocBlock[] {
  const text = readFileSync(new URL(file, ROOT), 'utf8')
  return [...text.matchAll(FENCE)].map((match) => {
    const info = match[1]!.trim()
    const noRun = /(?:^|\s)no-run:\s*(.*)$/.exec(info)
    return {
      file,
      line: text.slice(0, match.index).split('\n').length,
      language: info.split(/\s+/)[0]!,
      ...(noRun ? { noRun: noRun[1]!.trim() } : {}),
      body: match[2]!,
    }
  })
}

/** The Markdown files whose blocks the tests run: README.md, CONTRIBUTING.md and everything under docs/. */
export function documentedFiles(): string[] {
  const under = (dir: string): string[] =>
    readdirSync(new URL(dir, ROOT), { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory() ? under(`${dir}${entry.name}/`) : entry.name.endsWith('.md') ? [`${dir}${entry.name}`] : [],
    )
  // docs/api/ is generated from the declarations; its examples are fragments of the guides' blocks.
  return ['README.md', 'CONTRIBUTING.md', ...under('docs/').filter((file) => !file.startsWith('docs/api/')).sort()]
}

/** The bodies of a Markdown file's fenced blocks in the given language, in order. */
export function readmeBlocks(language: string, file = 'README.md'): string[] {
  return docBlocks(file)
    .filter((block) => block.language === language)
    .map((block) => block.body)
}

/** README's first TypeScript block: Quickstart 1, which users paste into a test file. */
export function readmeQuickstart(): string {
  const [block] = readmeBlocks('ts')
  if (block === undefined) throw new Error('README.md has no ```ts block')
  return block
}
