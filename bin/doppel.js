#!/usr/bin/env node
// The sources are TypeScript run by Node's type stripping (Node >= 22.18); see README "Requirements".
const [major, minor] = process.versions.node.split('.').map(Number)
if (major < 22 || (major === 22 && minor < 18)) {
  process.stderr.write(`doppel needs Node.js 22.18 or newer (this is ${process.version}). Run it through npm scripts or npx in the project, which use the pinned Node 24.\n`)
  process.exit(1)
}
// Caches the type-stripped sources on disk: a second start skips the TypeScript transform.
const { enableCompileCache } = await import('node:module')
enableCompileCache?.()
const { main } = await import('../src/cli/main.ts')
const code = await main(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  cwd: process.cwd(),
})
process.exitCode = code
