// The package's JavaScript: src/ bundled by rolldown into one file per entry point and shared chunks, so
// that importing doppel loads a few files instead of one per source module (docs/decisions/build.md,
// "Bundled JavaScript"). Dynamic imports stay separate chunks, loaded when first used.
import { builtinModules } from 'node:module'
import { build } from 'rolldown'

/** Entry points: each `exports` entry, the CLI, and the parse worker (started by its path). */
const ENTRIES: Record<string, string> = {
  index: 'src/index.ts',
  'faces/msw/index': 'src/faces/msw/index.ts',
  'faces/scenario/index': 'src/faces/scenario/index.ts',
  'faces/scenario/vitest': 'src/faces/scenario/vitest.ts',
  'cli/main': 'src/cli/main.ts',
  'features/documents/parse-worker': 'src/features/documents/parse-worker.ts',
}

const builtins = new Set(builtinModules)

/** Bundles the sources under `root` into `outDir` (dist/): ES modules with source maps; packages stay imports. */
export async function bundle(root: URL, outDir: URL): Promise<void> {
  await build({
    cwd: new URL('.', root).pathname,
    input: ENTRIES,
    platform: 'node',
    // Packages and Node's modules are the user's to install and load; only doppel's own code is bundled.
    external: (id) => id.startsWith('node:') || builtins.has(id) || /^[@\w]/.test(id),
    logLevel: 'warn',
    // A module both imported and dynamically imported stays where the static import puts it, as it does unbundled.
    checks: { ineffectiveDynamicImport: false },
    output: {
      dir: outDir.pathname,
      format: 'esm',
      entryFileNames: '[name].js',
      chunkFileNames: 'chunks/[name]-[hash].js',
      sourcemap: true,
    },
  })
}
