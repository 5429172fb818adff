import { readdirSync, statSync } from 'node:fs'
import { join, resolve } from 'node:path'

/** Directory names never searched for scenarios: fixture files are not scenarios. */
const SKIPPED_DIRECTORIES = new Set(['fixtures', 'node_modules', '.git'])
const SKIPPED_FILES = /^targets\.ya?ml$/

/**
 * The scenario files named by paths: files as given, directories searched for `*.yaml` / `*.yml`
 * (skipping `fixtures/` folders and `targets.yaml`), sorted. Throws for a path that does not exist.
 */
export function findScenarioFiles(paths: readonly string[], cwd: string): string[] {
  const found = new Set<string>()
  for (const path of paths) {
    const absolute = resolve(cwd, path)
    const stat = statSync(absolute, { throwIfNoEntry: false })
    if (!stat) throw new Error(`no such file or directory: ${path}`)
    if (stat.isDirectory()) for (const file of walk(absolute)) found.add(file)
    else found.add(absolute)
  }
  return [...found].sort()
}

function walk(directory: string): string[] {
  const out: string[] = []
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    const path = join(directory, entry.name)
    if (entry.isDirectory()) {
      if (!SKIPPED_DIRECTORIES.has(entry.name)) out.push(...walk(path))
    } else if (/\.ya?ml$/.test(entry.name) && !SKIPPED_FILES.test(entry.name)) {
      out.push(path)
    }
  }
  return out
}
