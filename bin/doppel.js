#!/usr/bin/env node
// The published package runs the built JavaScript in dist/. Inside doppel's own repository, where src/
// exists and dist/ may be stale or absent, it runs the TypeScript sources (Node's type stripping).
import { existsSync } from 'node:fs'
import { enableCompileCache } from 'node:module'

const source = new URL('../src/cli/main.ts', import.meta.url)
const fromSource = existsSync(source)
if (fromSource) {
  const [major, minor] = process.versions.node.split('.').map(Number)
  if (major < 22 || (major === 22 && minor < 18)) {
    process.stderr.write(`doppel's sources need Node.js 22.18 or newer (this is ${process.version}): run them through npm scripts or npx, which use the repository's pinned Node.\n`)
    process.exit(1)
  }
  // Caches the type-stripped sources on disk: a second start skips the TypeScript transform.
  enableCompileCache?.()
}
const { runCli } = await import(fromSource ? source.href : '../dist/cli/main.js')
await runCli()
