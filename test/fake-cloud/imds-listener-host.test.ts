import { request as httpRequest } from 'node:http'
import { afterAll, expect, it } from 'vitest'
import { createDoppel } from '../../src/features/doppel/index.ts'

// A per-instance IMDS listener answers loopback names only: a page that rebinds its name to 127.0.0.1
// cannot read the instance's credentials.
const doppel = createDoppel({ seed: 5 })
afterAll(() => doppel.cloud.close())

function get(port: number, host: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path: '/latest/meta-data/instance-id', headers: { Host: host }, agent: false }, (res) => {
      let text = ''
      res.on('data', (chunk) => (text += chunk))
      res.on('end', () => resolve({ status: res.statusCode!, text }))
    })
    req.on('error', reject)
    req.end()
  })
}

it('answers loopback names and the IPv4 and IPv6 metadata addresses, and refuses any other Host with 403', async () => {
  const instance = doppel.cloud.createInstance({})
  const port = Number(new URL((await doppel.cloud.startImdsListener(instance.instance_id)).endpoint).port)
  // The SDKs' IPv6 endpoint mode (AWS_EC2_METADATA_SERVICE_ENDPOINT_MODE=IPv6) sends Host [fd00:ec2::254].
  for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, '169.254.169.254', '[fd00:ec2::254]', '[FD00:EC2::254]']) {
    const reply = await get(port, host)
    expect(reply.status, host).toBe(200)
    expect(reply.text).toBe(instance.instance_id)
  }
  for (const host of ['attacker.example', `attacker.example:${port}`, '127.0.0.1.attacker.example', '[fd00:ec2::253]', 'fd00:ec2::254']) {
    const reply = await get(port, host)
    expect(reply.status, host).toBe(403)
    expect(reply.text).not.toContain(instance.instance_id)
  }
})
