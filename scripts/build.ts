// `npm run build` (and `prepack`): writes src/'s declarations to dist/ with tsc and its JavaScript, bundled
// with source maps, with rolldown (scripts/bundle.ts), then copies what the code reads at run time (JSON
// Schemas, assets/ folders), and makes each entry's declarations load Node's types themselves. See
// docs/decisions/build.md.
import { execFileSync } from 'node:child_process'
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { sep } from 'node:path'
import { bundle } from './bundle.ts'

const root = new URL('../', import.meta.url)
const dist = new URL('dist/', root)
rmSync(dist, { recursive: true, force: true })
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc')
execFileSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: root, stdio: 'inherit' })
await bundle(root, dist)

const runtimeFile = (path: string) => path.includes(`${sep}assets${sep}`) || path.endsWith('.schema.json')
cpSync(new URL('src/', root), dist, {
  recursive: true,
  filter: (source) => !/\.[cm]?ts$/.test(source) && (!/\.\w+$/.test(source) || runtimeFile(source)),
})

// The declarations name Node's types (Buffer, node:http's Server, NodeJS.CallSite); a consumer whose
// tsconfig loads no ambient types (`types: []`, TypeScript 6+'s default) gets them through this line.
const NODE_TYPES = '/// <reference types="node" />\n'
const manifest = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as { exports: Record<string, string | { types?: string }> }
for (const entry of Object.values(manifest.exports)) {
  if (typeof entry === 'string' || entry.types === undefined) continue
  const file = new URL(entry.types, root)
  writeFileSync(file, NODE_TYPES + readFileSync(file, 'utf8'))
}
