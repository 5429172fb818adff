import { defineConfig } from 'vitest/config'

/**
 * Files that time doppel's own work on a large state (the CPU time a small request was held for): run after
 * every other file, one at a time, so that no other file's work (their collections share V8's helper threads
 * with this one) is counted as doppel's.
 */
const alone = ['test/robustness/large-state-stalls.test.ts', 'test/robustness/large-fixture.test.ts']

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'threads',
    // Fails the run when tests leave a process they started or a doppel-* temp folder behind.
    globalSetup: ['test/support/leak-check.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'suite',
          sequence: { groupOrder: 1 },
          include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'conformance/**/*.test.ts'],
          // test/real-server/ runs inside scripts/real-server.sh, with its own config there.
          exclude: ['**/node_modules/**', 'conformance/**/*.container.test.ts', 'test/real-server/**', ...alone],
        },
      },
      { extends: true, test: { name: 'alone', include: alone, fileParallelism: false, sequence: { groupOrder: 2 } } },
    ],
  },
})
