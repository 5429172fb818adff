import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'conformance/**/*.test.ts'],
    // test/real-server/ runs inside scripts/real-server.sh, with its own config there.
    exclude: ['**/node_modules/**', 'conformance/**/*.container.test.ts', 'test/real-server/**'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'threads',
    // Fails the run when tests leave a process they started or a doppel-* temp folder behind.
    globalSetup: ['test/support/leak-check.ts'],
  },
})
