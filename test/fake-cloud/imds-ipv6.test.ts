import { GetCallerIdentityCommand, STSClient } from '@aws-sdk/client-sts'
import { fromInstanceMetadata } from '@aws-sdk/credential-providers'
import { setupServer } from 'msw/node'
import { afterAll, afterEach, beforeAll, expect, it, vi } from 'vitest'
import { createDoppel } from '../../src/features/doppel/index.ts'
import { createHandlers } from '../../src/faces/msw/index.ts'

// The SDKs' IPv6 endpoint mode (AWS_EC2_METADATA_SERVICE_ENDPOINT_MODE=IPv6) reads http://[fd00:ec2::254]
// (an instance's own listener answers that Host too: imds-listener-host.test.ts).
const doppel = createDoppel({ seed: 13 })
const server = setupServer(...createHandlers(doppel))
const hosts: string[] = []
server.events.on('request:start', ({ request }) => void hosts.push(new URL(request.url).host))
beforeAll(() => server.listen({ onUnhandledFrame: 'error' }))
afterEach(() => vi.unstubAllEnvs())
afterAll(() => server.close())

it('the SDK reads instance-role credentials in IPv6 endpoint mode through MSW, and STS accepts them', async () => {
  vi.stubEnv('AWS_EC2_METADATA_SERVICE_ENDPOINT_MODE', 'IPv6')
  const instance = doppel.cloud.createInstance({ iam_role_name: 'web', http_tokens: 'required' })
  doppel.cloud.useInstance(instance.instance_id)
  const credentials = await fromInstanceMetadata({ timeout: 5000, maxRetries: 0 })()
  expect(new Set(hosts)).toEqual(new Set(['[fd00:ec2::254]']))
  const sts = new STSClient({ region: 'us-east-1', credentials, maxAttempts: 1, systemClockOffset: doppel.clock.nowMs() - Date.now() })
  const identity = await sts.send(new GetCallerIdentityCommand({}))
  expect(identity.Arn).toMatch(new RegExp(`:assumed-role/web/${instance.instance_id}$`))
})
