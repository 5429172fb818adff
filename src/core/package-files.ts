/**
 * Files the package reads at run time, found from its root. The same code runs from the TypeScript
 * sources (`src/`, in the repository) and bundled into shared chunks (`dist/`, in the installed package),
 * where a path relative to a module's own file would name a different folder in each
 * (docs/decisions/build.md).
 */
import { existsSync } from 'node:fs'
import { dirname, extname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const here = fileURLToPath(import.meta.url)

/** The folder of the running code (`src/` or `dist/`): the one whose parent holds the package's package.json. */
function codeRoot(): string {
  let folder = dirname(here)
  while (!existsSync(join(dirname(folder), 'package.json'))) {
    if (dirname(folder) === folder) throw new Error(`doppel: no package.json above ${here}`)
    folder = dirname(folder)
  }
  return folder
}

// Where the package is installed: fixed for the life of the process, like the code itself.
const CODE_ROOT = codeRoot()

/** A file of the package, from its root: `certs/…`, `schemas/…`, `conformance/`, `package.json`. */
export function packageFile(relative: string): string {
  return join(dirname(CODE_ROOT), relative)
}

/** A file of the running code, from `src/` or `dist/`: `features/dashboard/assets/app.js`. */
export function codeFile(relative: string): string {
  return join(CODE_ROOT, relative)
}

/** The extension of the running code's modules: `.ts` from the sources, `.js` once built. */
export const MODULE_EXTENSION = extname(here)
