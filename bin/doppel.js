#!/usr/bin/env node
// The published package runs the built JavaScript in dist/. Inside doppel's own repository, where src/
// exists and dist/ may be stale or absent, it runs the TypeScript sources (Node's type stripping).
import { existsSync } from 'node:fs'
// A namespace import: a named import of `enableCompileCache` fails to link on a Node without it, before
// the version check below could say why.
import * as nodeModule from 'node:module'

const source = new URL('../src/cli/main.ts', import.meta.url)
const fromSource = existsSync(source)
const [major, minor] = process.versions.node.split('.').map(Number)
const older = (wantedMajor, wantedMinor) => major < wantedMajor || (major === wantedMajor && minor < wantedMinor)
if (fromSource && older(22, 18)) {
  process.stderr.write(`doppel's sources need Node.js 22.18 or newer (this is ${process.version}): run them through npm scripts or npx, which use the repository's pinned Node.\n`)
  process.exit(1)
}
if (!fromSource && older(22, 12)) {
  process.stderr.write(`doppel needs Node.js 22.12 or newer (this is ${process.version}).\n`)
  process.exit(1)
}
// Caches the type-stripped sources on disk: a second start skips the TypeScript transform.
if (fromSource) nodeModule.enableCompileCache?.()
const { runCli } = await import(fromSource ? source.href : '../dist/cli/main.js')
await runCli()
