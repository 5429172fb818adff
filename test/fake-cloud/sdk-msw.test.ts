import { fromInstanceMetadata } from '@aws-sdk/credential-providers'
import { afterAll, beforeAll } from 'vitest'
import { createDoppel } from '../../src/features/doppel/index.ts'
import { getFakeCloud } from '../../src/services/fake-cloud/index.ts'
import { startMsw } from './helpers.ts'
import { sdkSuite } from './sdk-suite.ts'

// Real SDK v3 clients against the real AWS hostnames, intercepted by MSW and answered by doppel.fetch.
const doppel = createDoppel({ seed: 7 })
let msw: ReturnType<typeof startMsw>
beforeAll(() => {
  msw = startMsw(doppel)
})
afterAll(() => msw.close())

sdkSuite({
  doppel,
  endpoints: () => ({}),
  instanceMetadata: async (instanceId) => {
    getFakeCloud(doppel).useInstance(instanceId)
    return fromInstanceMetadata({ timeout: 5000 })
  },
})
