import { describe, expect, it } from 'vitest'
import { errors, managementClient } from './management-client.ts'

const DEFAULTS = {
  iam_alias: 'role_id',
  iam_metadata: ['account_id', 'auth_type'],
  ec2_alias: 'role_id',
  ec2_metadata: ['account_id', 'auth_type'],
}

describe('config/identity', () => {
  it('reads 200 with the defaults when never configured', async () => {
    const answer = await managementClient().read('config/identity')
    expect(answer.status).toBe(200)
    expect(answer.body.data).toStrictEqual(DEFAULTS)
  })

  it('checks aliases and saves nothing on a failure (TestBackend_pathConfigIdentity)', async () => {
    const api = managementClient()
    expect((await api.write('config/identity', { iam_alias: 'invalid' })).body).toEqual(
      errors('iam_alias of "invalid" not in set of allowed values: [role_id unique_id full_arn canonical_arn]'),
    )
    expect((await api.write('config/identity', { iam_alias: 'full_arn', ec2_alias: 'invalid' })).body).toEqual(
      errors('ec2_alias of "invalid" not in set of allowed values: [role_id instance_id image_id]'),
    )
    expect((await api.read('config/identity')).body.data.iam_alias).toBe('role_id')
    expect((await api.write('config/identity', { iam_alias: 'full_arn', ec2_alias: 'image_id' })).status).toBe(204)
    await api.write('config/identity', { ec2_alias: 'instance_id' })
    expect((await api.read('config/identity')).body.data).toMatchObject({ iam_alias: 'full_arn', ec2_alias: 'instance_id' })
    await api.write('config/identity', { iam_alias: 'unique_id' })
    await api.write('config/identity', { iam_alias: 'canonical_arn' })
    expect((await api.read('config/identity')).body.data.iam_alias).toBe('canonical_arn')
    expect((await api.write('config/identity', { iam_alias: '' })).body).toEqual(
      errors('iam_alias of "" not in set of allowed values: [role_id unique_id full_arn canonical_arn]'),
    )
  })

  it('sanitises metadata lists: trimmed, lower-cased, de-duplicated, sorted; [] and "" mean none', async () => {
    const api = managementClient()
    await api.write('config/identity', { ec2_metadata: ' REGION,instance_id,region,,ami_id', iam_metadata: [] })
    expect((await api.read('config/identity')).body.data).toMatchObject({
      ec2_metadata: ['ami_id', 'instance_id', 'region'],
      iam_metadata: [],
    })
    await api.write('config/identity', { ec2_metadata: '' })
    expect((await api.read('config/identity')).body.data.ec2_metadata).toEqual([])
  })

  it('restores the defaults with exactly ["default"]', async () => {
    const api = managementClient()
    await api.write('config/identity', { iam_metadata: 'client_arn', ec2_metadata: 'region' })
    await api.write('config/identity', { iam_metadata: ['default'], ec2_metadata: 'Default, default' })
    expect((await api.read('config/identity')).body.data).toStrictEqual(DEFAULTS)
  })

  it('refuses default with other fields, and unknown fields, with the exact texts', async () => {
    const api = managementClient()
    expect((await api.write('config/identity', { ec2_metadata: 'default,ami_id' })).body).toEqual(
      errors(`["ami_id" "default"] contains default - default can't be used in combination with other fields`),
    )
    expect((await api.write('config/identity', { iam_metadata: 'instance_id,client_arn' })).body).toEqual(
      errors(
        '"client_arn, instance_id" contains an unavailable field, please select from "account_id, auth_type, canonical_arn, client_arn, client_user_id, inferred_aws_region, inferred_entity_id, inferred_entity_type, inferred_hostname"',
      ),
    )
    expect((await api.write('config/identity', { ec2_metadata: 'client_arn' })).body).toEqual(
      errors('"client_arn" contains an unavailable field, please select from "account_id, auth_type, ami_id, instance_id, region"'),
    )
    expect((await api.write('config/identity', { iam_metadata: 'client_arn', ec2_metadata: 'bogus' })).status).toBe(400)
    expect((await api.read('config/identity')).body.data).toStrictEqual(DEFAULTS)
  })

  it('has no delete (405)', async () => {
    expect((await managementClient().remove('config/identity')).status).toBe(405)
  })
})
