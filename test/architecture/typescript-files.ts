import { readdirSync } from 'node:fs'
import { join } from 'node:path'

/** Every `.ts` file under `dir`, as full paths; test files (`*.test.ts`) only when `tests` says so. */
export function typescriptFiles(dir: string, { tests = false }: { tests?: boolean } = {}): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return typescriptFiles(path, { tests })
    return entry.name.endsWith('.ts') && (tests || !entry.name.endsWith('.test.ts')) ? [path] : []
  })
}
