import { fromInstanceMetadata } from '@aws-sdk/credential-providers'
import { afterAll, beforeAll } from 'vitest'
import { createDoppel } from '../../src/features/doppel/index.ts'
import { startServer, type TestServer } from './helpers.ts'
import { sdkSuite } from './sdk-suite.ts'

// Real SDK v3 clients pointed at a node:http server through endpoint overrides under /_doppel/cloud/.
const doppel = createDoppel({ seed: 8 })
let server: TestServer
beforeAll(async () => {
  server = await startServer(doppel)
})
afterAll(async () => {
  delete process.env.AWS_EC2_METADATA_SERVICE_ENDPOINT
  await server.close()
})

sdkSuite({
  doppel,
  endpoints: () => ({ sts: `${server.url}/_doppel/cloud/sts`, ec2: `${server.url}/_doppel/cloud/ec2`, iam: `${server.url}/_doppel/cloud/iam` }),
  instanceMetadata: async (instanceId) => {
    const response = await fetch(`${server.url}/_doppel/cloud/instances/${instanceId}/imds`, { method: 'POST' })
    const { endpoint } = (await response.json()) as { endpoint: string }
    process.env.AWS_EC2_METADATA_SERVICE_ENDPOINT = endpoint
    return fromInstanceMetadata({ timeout: 5000 })
  },
})
