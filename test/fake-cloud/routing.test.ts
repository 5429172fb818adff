import { beforeEach, describe, expect, it } from 'vitest'
import { createDoppel } from '../../src/features/doppel/index.ts'
import { getFakeCloud } from '../../src/services/fake-cloud/index.ts'

// Where the fake cloud answers: real hostnames (MSW mode), doppel's own paths, and the cloud listener.
const doppel = createDoppel({ seed: 2 })
const cloud = getFakeCloud(doppel)
beforeEach(() => doppel.reset())

describe('routing', () => {
  it('the metadata address answers on IPv4 and IPv6', async () => {
    const instance = cloud.createInstance()
    for (const host of ['169.254.169.254', '[fd00:ec2::254]']) {
      expect(await (await doppel.fetch(`http://${host}/latest/meta-data/instance-id`)).text()).toBe(instance.instance_id)
    }
  })

  it('an AWS hostname the fake cloud does not emulate is a plain 404', async () => {
    const response = await doppel.fetch('https://s3.amazonaws.com/bucket/key')
    expect(response.status).toBe(404)
    expect(await response.text()).toContain('does not emulate s3.amazonaws.com')
  })

  it('on the cloud listener an unsigned request reaches the metadata service, a signed one its service', async () => {
    const instance = cloud.createInstance()
    const metadata = await doppel.handle(new Request('http://127.0.0.1:9/latest/meta-data/instance-id'), { surface: 'cloud' })
    expect(await metadata.text()).toBe(instance.instance_id)
    const signed = await doppel.handle(
      new Request('http://127.0.0.1:9/', {
        method: 'POST',
        headers: { authorization: 'AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20240305/us-east-1/iam/aws4_request, SignedHeaders=host, Signature=00' },
        body: 'Action=GetUser&Version=2010-05-08',
      }),
      { surface: 'cloud' },
    )
    expect(signed.headers.get('content-type')).toBe('text/xml')
    expect(await signed.text()).toContain('xmlns="https://iam.amazonaws.com/doc/2010-05-08/"')
  })

  it('injected faults on the fake cloud answer in its XML error envelope', async () => {
    // On its AWS hostnames: faults never apply under /_doppel/.
    doppel.faults.add({ path: '/', status: 503, times: 1 })
    const response = await doppel.fetch('https://sts.amazonaws.com/', { method: 'POST' })
    expect(response.status).toBe(503)
    expect(await response.text()).toContain('<Code>InternalFailure</Code>')
  })
})
