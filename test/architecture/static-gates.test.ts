import { execFile } from 'node:child_process'
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { delimiter, dirname, join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { tempDir } from '../support/temp-dir.ts'

// `npm run lint` (the linter and the unused-code check, run by `npm test`) fails on a finding: the
// repository's own script and configs, run on a tiny project with one thing planted at a time.
const ROOT = resolve(import.meta.dirname, '../..')
const LINT = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts.lint!
const exec = promisify(execFile)

const CLEAN = {
  'src/index.ts': "import { greeting } from './greeting.ts'\n\nexport const hello = greeting('doppel')\n",
  'src/greeting.ts': 'export function greeting(name: string): string {\n  return `hello ${name}`\n}\n',
}

async function lint(files: Record<string, string>): Promise<{ code: number; output: string }> {
  const dir = tempDir('static-gates')
  for (const config of ['biome.jsonc', 'knip.jsonc', 'tsconfig.json', '.gitignore']) copyFileSync(join(ROOT, config), join(dir, config))
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'planted', type: 'module', private: true }))
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true })
    writeFileSync(join(dir, path), text)
  }
  const env = { ...process.env, PATH: `${join(ROOT, 'node_modules/.bin')}${delimiter}${process.env.PATH}`, NO_COLOR: '1' }
  try {
    const { stdout, stderr } = await exec('sh', ['-c', LINT], { cwd: dir, env, timeout: 60_000 })
    return { code: 0, output: stdout + stderr }
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string }
    return { code: failed.code, output: failed.stdout + failed.stderr }
  }
}

describe('npm run lint', () => {
  it('passes a clean project', async () => {
    const { code, output } = await lint(CLEAN)
    expect(output).not.toMatch(/lint\/|Unused/)
    expect(code).toBe(0)
  })

  it('fails on an unused export', async () => {
    const planted = `${CLEAN['src/greeting.ts']}\nexport const farewell = 'bye'\n`
    const { code, output } = await lint({ ...CLEAN, 'src/greeting.ts': planted })
    expect(output).toMatch(/Unused exports \(1\)\s+farewell\s+src\/greeting\.ts/)
    expect(code).not.toBe(0)
  })

  it('fails on a lint finding', async () => {
    const planted = "export function greeting(name: string): string {\n  debugger\n  return `hello ${name}`\n}\n"
    const { code, output } = await lint({ ...CLEAN, 'src/greeting.ts': planted })
    expect(output).toContain('lint/suspicious/noDebugger')
    expect(code).not.toBe(0)
  })
})
