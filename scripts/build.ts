// `npm run build` (and `prepack`): compiles src/ to dist/ as JavaScript, declarations and source maps,
// then copies what the code reads at run time (JSON Schemas, assets/ folders). See docs/decisions/build.md.
import { execFileSync } from 'node:child_process'
import { cpSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { sep } from 'node:path'

const root = new URL('../', import.meta.url)
const dist = new URL('dist/', root)
rmSync(dist, { recursive: true, force: true })
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc')
execFileSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: root, stdio: 'inherit' })

const runtimeFile = (path: string) => path.includes(`${sep}assets${sep}`) || path.endsWith('.schema.json')
cpSync(new URL('src/', root), dist, {
  recursive: true,
  filter: (source) => !/\.[cm]?ts$/.test(source) && (!/\.\w+$/.test(source) || runtimeFile(source)),
})
