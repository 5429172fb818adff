import { defineConfig } from 'vitest/config'

/** The nested run of vitest-integration.test.ts: only the suite file, one worker. */
export default defineConfig({
  test: {
    include: ['test/scenario/vitest-suite/*.suite.ts'],
    pool: 'threads',
  },
})
