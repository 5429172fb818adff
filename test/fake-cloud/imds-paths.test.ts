import { MetadataService } from '@aws-sdk/ec2-metadata-service'
import { afterAll, describe, expect, it } from 'vitest'
import { createDoppel } from '../../src/features/doppel/index.ts'
import { getFakeCloud } from '../../src/services/fake-cloud/index.ts'

// IMDS paths as real IMDS serves them (docs/reference/fake-cloud.md §2.2): leaves and directories with or without a
// trailing slash, read by the AWS SDK's own metadata client over a real socket (IMDSv2 token first).
const doppel = createDoppel({ seed: 11 })
const cloud = getFakeCloud(doppel)
afterAll(() => cloud.close())

async function client(input: Parameters<typeof cloud.createInstance>[0]) {
  const instance = cloud.createInstance(input)
  const { endpoint } = await cloud.startImdsListener(instance.instance_id)
  return { instance, metadata: new MetadataService({ endpoint, retries: 0, httpOptions: { timeout: 5000 } }) }
}

describe('IMDS paths through @aws-sdk/ec2-metadata-service', () => {
  it('reads the region and zone as the SDK and botocore ask for them (with and without a trailing slash)', async () => {
    const { instance, metadata } = await client({ region: 'eu-west-1', availability_zone: 'eu-west-1b', http_tokens: 'required' })
    expect(await metadata.request('/latest/meta-data/placement/region', {})).toBe('eu-west-1')
    expect(await metadata.request('/latest/meta-data/placement/availability-zone/', {})).toBe('eu-west-1b')
    expect(await metadata.request('/latest/meta-data/placement/availability-zone', {})).toBe('eu-west-1b')
    expect(await metadata.request('/latest/meta-data/instance-id/', {})).toBe(instance.instance_id)
    expect(JSON.parse(await metadata.request('/latest/dynamic/instance-identity/document/', {})).region).toBe('eu-west-1')
  })

  it('lists directories with or without the slash, and every leaf a listing names answers', async () => {
    const { metadata } = await client({ iam_role_name: 'web', tags: { Name: 'web-1' }, instance_metadata_tags: 'enabled' })
    const walk = async (path: string): Promise<number> => {
      const listing = (await metadata.request(path, {})).split('\n')
      expect(await metadata.request(path.slice(0, -1), {})).toBe(listing.join('\n'))
      let leaves = 0
      for (const entry of listing) {
        if (entry.endsWith('/')) leaves += await walk(`${path}${entry}`)
        else {
          await expect(metadata.request(`${path}${entry}`, {})).resolves.toEqual(expect.any(String))
          await expect(metadata.request(`${path}${entry}/`, {})).resolves.toEqual(expect.any(String))
          leaves++
        }
      }
      return leaves
    }
    expect(await walk('/latest/meta-data/')).toBeGreaterThan(30)
    expect(await walk('/latest/dynamic/')).toBe(5)
  })

  it('an unknown path is still 404 with or without the slash', async () => {
    const { metadata } = await client({})
    await expect(metadata.request('/latest/meta-data/nope/', {})).rejects.toThrow(/404/)
    await expect(metadata.request('/latest/meta-data/placement/nope', {})).rejects.toThrow(/404/)
  })
})
