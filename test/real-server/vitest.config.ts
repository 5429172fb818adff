import { defineConfig } from 'vitest/config'

// The tests against a real server, run by CI inside scripts/real-server.sh (the main run excludes them).
export default defineConfig({
  test: {
    include: ['test/real-server/**/*.test.ts'],
    testTimeout: 180_000,
    hookTimeout: 60_000,
    fileParallelism: false,
    pool: 'threads',
    globalSetup: ['test/support/leak-check.ts'],
  },
})
