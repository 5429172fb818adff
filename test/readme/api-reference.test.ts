import { execFileSync } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'

// docs/api/ is TypeDoc's Markdown of the public declarations (typedoc.json): regenerated here into a
// temporary folder and compared, so the checked-in reference cannot fall behind. Run
// `npm run docs:api` after changing a public declaration or its TSDoc.

const ROOT = new URL('../../', import.meta.url)
const out = mkdtempSync(join(tmpdir(), 'doppel-api-'))
afterAll(() => rmSync(out, { recursive: true, force: true }))

function files(dir: string): Map<string, string> {
  const found = new Map<string, string>()
  const walk = (at: string) => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const path = join(at, entry.name)
      if (entry.isDirectory()) walk(path)
      else found.set(relative(dir, path), readFileSync(path, 'utf8'))
    }
  }
  walk(dir)
  return found
}

describe('the API reference in docs/api/', () => {
  it('is what TypeDoc generates from the declarations today (npm run docs:api)', { timeout: 180_000 }, () => {
    const typedoc = new URL('../../node_modules/typedoc/bin/typedoc', import.meta.url).pathname
    execFileSync(process.execPath, [typedoc, '--out', out, '--treatWarningsAsErrors'], { cwd: ROOT, stdio: 'pipe' })
    const generated = files(out)
    const checkedIn = files(new URL('docs/api/', ROOT).pathname)
    expect([...checkedIn.keys()].sort()).toEqual([...generated.keys()].sort())
    for (const [file, text] of generated) expect(checkedIn.get(file), file).toBe(text)
    // The options a newcomer looks for are there, with their TSDoc.
    const options = checkedIn.get(join('doppel', 'interfaces', 'DoppelOptions.md')) ?? ''
    for (const option of ['cloudAuth', 'profile', 'rootTokens', 'journalLimit', 'clock', 'fixtures']) expect(options).toContain(`### ${option}?`)
    // The old spelling of the auth method's option stays, marked deprecated for its last release.
    expect(options).toContain('### ~~allowSha1?~~')
  })
})
