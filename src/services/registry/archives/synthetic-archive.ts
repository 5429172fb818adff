import { gzipSync } from 'node:zlib'
import type { ModuleContents, ModuleSource } from '../glossary.ts'
import { writeTar, type TarFile } from './tar-writer.ts'

/**
 * A gzip tarball whose code declares what a seeded version's metadata says, so seeded versions download
 * like uploaded ones.
 */
export function syntheticArchive(contents: ModuleContents): Uint8Array {
  const files: TarFile[] = []
  for (const source of [contents.root, ...contents.submodules, ...contents.examples]) {
    const dir = source.path === '' ? '' : `${source.path}/`
    files.push({ path: `${dir}main.tf`, content: render(source) })
    if (source.readme !== '') files.push({ path: `${dir}README.md`, content: source.readme })
  }
  return gzipSync(writeTar(files))
}

/** A string literal in HCL: JSON escaping plus escaped template introducers. */
function quote(text: string): string {
  return JSON.stringify(text).replace(/\$\{/g, '$${').replace(/%\{/g, '%%{')
}

function render(source: ModuleSource): string {
  const out: string[] = []
  const explicit = source.providerDependencies.filter((p) => p.version !== '' || p.namespace !== 'hashicorp')
  if (explicit.length > 0) {
    out.push('terraform {', '  required_providers {')
    for (const p of explicit) out.push(`    ${p.name} = {`, `      source  = ${quote(p.source)}`, `      version = ${quote(p.version)}`, '    }')
    out.push('  }', '}', '')
  }
  for (const input of source.inputs) {
    out.push(`variable ${quote(input.name)} {`)
    if (input.type !== '') out.push(`  type        = ${input.type}`)
    if (input.description !== '') out.push(`  description = ${quote(input.description)}`)
    if (!input.required) out.push(`  default     = ${input.default === '' ? 'null' : input.default}`)
    out.push('}', '')
  }
  for (const resource of source.resources) out.push(`resource ${quote(resource.type)} ${quote(resource.name)} {}`, '')
  for (const dep of source.dependencies) {
    out.push(`module ${quote(dep.name)} {`, `  source = ${quote(dep.source)}`)
    if (dep.version !== '') out.push(`  version = ${quote(dep.version)}`)
    out.push('}', '')
  }
  for (const output of source.outputs) {
    out.push(`output ${quote(output.name)} {`, '  value       = null')
    if (output.description !== '') out.push(`  description = ${quote(output.description)}`)
    out.push('}', '')
  }
  return out.join('\n')
}
