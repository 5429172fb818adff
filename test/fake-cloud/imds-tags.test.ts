import { DescribeInstancesCommand, EC2Client } from '@aws-sdk/client-ec2'
import { MetadataService } from '@aws-sdk/ec2-metadata-service'
import { afterAll, describe, expect, it } from 'vitest'
import { createDoppel, type Doppel } from '../../src/features/doppel/index.ts'
import { loadFixtures } from '../../src/features/fixtures/index.ts'
import { getFakeCloud } from '../../src/services/fake-cloud/index.ts'
import { startServer } from './helpers.ts'

// IMDS serves `meta-data/tags/` only when the instance enables tag access (EC2's InstanceMetadataTags,
// off by default; docs/reference/fake-cloud.md §2.2): set at creation, by fixtures, or later through
// `POST /_doppel/cloud/instances/<id>/metadata-options`, as EC2's ModifyInstanceMetadataOptions.

const TAGS = { Name: 'web-1', Team: 'core' }
const listeners: Doppel[] = []
afterAll(async () => {
  for (const doppel of listeners) await getFakeCloud(doppel).close()
})

async function metadataClient(doppel: Doppel, instanceId: string): Promise<MetadataService> {
  listeners.push(doppel)
  const { endpoint } = await getFakeCloud(doppel).startImdsListener(instanceId)
  return new MetadataService({ endpoint, retries: 0, httpOptions: { timeout: 5000 } })
}

const control = async (doppel: Doppel, path: string, body: unknown) => {
  const response = await doppel.fetch(`http://doppel.test/_doppel/cloud/${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  })
  return { status: response.status, body: await response.json() }
}
const imds = async (doppel: Doppel, instanceId: string, path: string) => {
  const response = await doppel.fetch(`http://doppel.test/_doppel/cloud/imds/${instanceId}/latest/meta-data/${path}`)
  return { status: response.status, body: await response.text() }
}

describe('IMDS tags/ and tag access', () => {
  it('are not served by default, even for an instance with tags (SDK metadata client)', async () => {
    const doppel = createDoppel({ seed: 3 })
    const instance = getFakeCloud(doppel).createInstance({ tags: TAGS })
    expect(instance.instance_metadata_tags).toBe('disabled')
    const metadata = await metadataClient(doppel, instance.instance_id)
    expect((await metadata.request('/latest/meta-data/', {})).split('\n')).not.toContain('tags/')
    await expect(metadata.request('/latest/meta-data/tags/instance/Name', {})).rejects.toThrow(/404/)
  })

  it('are listed and served with tag access enabled at creation (SDK metadata client)', async () => {
    const doppel = createDoppel({ seed: 3 })
    const instance = getFakeCloud(doppel).createInstance({ tags: TAGS, instance_metadata_tags: 'enabled' })
    const metadata = await metadataClient(doppel, instance.instance_id)
    expect((await metadata.request('/latest/meta-data/', {})).split('\n')).toContain('tags/')
    expect(await metadata.request('/latest/meta-data/tags/instance', {})).toBe('Name\nTeam')
    expect(await metadata.request('/latest/meta-data/tags/instance/Team', {})).toBe('core')
  })

  it('turn on and off through the control API, which answers the instance; DescribeInstances shows the option', async () => {
    const doppel = createDoppel({ seed: 3 })
    const { instance_id: id } = getFakeCloud(doppel).createInstance({ tags: TAGS, http_tokens: 'required' })
    const token = await (
      await doppel.fetch(`http://doppel.test/_doppel/cloud/imds/${id}/latest/api/token`, { method: 'PUT', headers: { 'X-aws-ec2-metadata-token-ttl-seconds': '60' } })
    ).text()
    const tagName = async () =>
      (await doppel.fetch(`http://doppel.test/_doppel/cloud/imds/${id}/latest/meta-data/tags/instance/Name`, { headers: { 'X-aws-ec2-metadata-token': token } })).status
    expect(await tagName()).toBe(404)

    const enabled = await control(doppel, `instances/${id}/metadata-options`, { instance_metadata_tags: 'enabled' })
    expect(enabled.status).toBe(200)
    // Only the option given changes.
    expect(enabled.body).toMatchObject({ instance_id: id, instance_metadata_tags: 'enabled', http_tokens: 'required' })
    expect(await tagName()).toBe(200)

    const server = await startServer(doppel)
    try {
      const ec2 = new EC2Client({ region: 'us-east-1', endpoint: `${server.url}/_doppel/cloud/ec2`, credentials: getFakeCloud(doppel).defaultServiceCredentials() })
      const described = await ec2.send(new DescribeInstancesCommand({ InstanceIds: [id] }))
      expect(described.Reservations?.[0]?.Instances?.[0]?.MetadataOptions).toEqual({
        State: 'applied',
        HttpTokens: 'required',
        HttpPutResponseHopLimit: 1,
        HttpEndpoint: 'enabled',
        HttpProtocolIpv6: 'disabled',
        InstanceMetadataTags: 'enabled',
      })
    } finally {
      await server.close()
    }

    expect((await control(doppel, `instances/${id}/metadata-options`, { instance_metadata_tags: 'disabled' })).status).toBe(200)
    expect(await tagName()).toBe(404)
  })

  it('refuses bad options, an unknown or terminated instance, and changes nothing', async () => {
    const doppel = createDoppel({ seed: 3 })
    const cloud = getFakeCloud(doppel)
    const { instance_id: id } = cloud.createInstance({ tags: TAGS })
    const before = JSON.stringify(doppel.store.snapshot())
    expect(await control(doppel, `instances/${id}/metadata-options`, { instance_metadata_tags: 'on' })).toEqual({
      status: 400,
      body: { errors: [`Failed to change the metadata options of instance ${id}: "instance_metadata_tags" must be one of enabled, disabled`] },
    })
    expect((await control(doppel, `instances/${id}/metadata-options`, { tags: {} })).status).toBe(400)
    expect((await control(doppel, `instances/${id}/metadata-options`, [])).status).toBe(400)
    expect((await control(doppel, 'instances/i-0123456789abcdef0/metadata-options', { instance_metadata_tags: 'enabled' })).status).toBe(404)
    expect(JSON.stringify(doppel.store.snapshot())).toBe(before)
    cloud.setInstanceState(id, 'terminated')
    expect((await control(doppel, `instances/${id}/metadata-options`, { instance_metadata_tags: 'enabled' })).status).toBe(400)
    expect(cloud.getInstance(id)?.instance_metadata_tags).toBe('disabled')
  })

  it('come from fixtures, survive a snapshot, and an older snapshot without the field reads as disabled', async () => {
    const doppel = createDoppel({ seed: 3 })
    await loadFixtures(doppel, `cloud:\n  instances:\n    - { instance_id: i-0aaaaaaaaaaaaaaa1, tags: { Name: a }, instance_metadata_tags: enabled }\n`, 'tags.yaml')
    expect((await imds(doppel, 'i-0aaaaaaaaaaaaaaa1', 'tags/instance/Name')).body).toBe('a')

    const saved = JSON.parse(JSON.stringify(doppel.snapshot()))
    const clone = createDoppel({ seed: 3 })
    clone.restore(saved)
    expect((await imds(clone, 'i-0aaaaaaaaaaaaaaa1', 'tags/instance/Name')).body).toBe('a')

    const older = JSON.parse(JSON.stringify(saved).replaceAll(',"instance_metadata_tags":"enabled"', ''))
    expect(JSON.stringify(older)).not.toContain('instance_metadata_tags')
    const oldClone = createDoppel({ seed: 3 })
    oldClone.restore(older)
    expect((await imds(oldClone, 'i-0aaaaaaaaaaaaaaa1', 'tags/instance/Name')).status).toBe(404)
    expect(getFakeCloud(oldClone).getInstance('i-0aaaaaaaaaaaaaaa1')?.instance_metadata_tags).toBe('disabled')
  })
})

