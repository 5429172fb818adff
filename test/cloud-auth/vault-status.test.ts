import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEVIATIONS } from '../../src/services/cloud-auth/index.ts'
import type { Instance } from '../../src/services/fake-cloud/index.ts'
import { BASE, createEc2Role, identitySignature, loginWorld, type JsonReply, type LoginWorld } from './login-setup.ts'

/**
 * Every `bad-input-5xx` row of deviations.ts, reached through `doppel.fetch` in both profiles: the service
 * profile answers 400, the vault profile Vault's 500 (a multierror on authenticated paths, bare on login),
 * with the same message. A row without a trigger here fails the first test.
 */

const PROFILES = [
  { profile: 'service', status: 400 },
  { profile: 'vault', status: 500 },
] as const

type Trigger = (world: LoginWorld, instance: Instance) => Promise<JsonReply>

let dir: string
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'doppel-vault-status-'))
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'k.pem', '-out', 'c.pem', '-subj', '/O=Foreign', '-days', '36500', '-sha256'], { cwd: dir, stdio: 'pipe' })
}, 30_000)
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** A PKCS#7 document signed by a foreign certificate, which the trigger may register first. */
function foreignPkcs7(content: string): string {
  writeFileSync(join(dir, 'doc'), content)
  execFileSync('openssl', ['cms', '-sign', '-binary', '-nodetach', '-nocerts', '-md', 'sha256', '-outform', 'DER', '-signer', 'c.pem', '-inkey', 'k.pem', '-in', 'doc', '-out', 'doc.p7'], { cwd: dir, stdio: 'pipe' })
  return readFileSync(join(dir, 'doc.p7')).toString('base64')
}
const trustForeign = (world: LoginWorld) => world.api('POST', 'config/certificate/foreign', { aws_public_cert: readFileSync(join(dir, 'c.pem'), 'utf8') })

const rsa2048 = (world: LoginWorld, instance: Instance) => world.cloud.identityDocument(instance.instance_id, 'rsa2048')

/** A role tag made for `tag-role`, set on a new instance of the same AMI under `key`. */
async function taggedLogin(world: LoginWorld, probe: Instance, options: { tag?: object; key?: string; role?: string; change?: (tag: string) => string; deny?: boolean; rolePolicies?: string } = {}) {
  await world.api('POST', 'role/tag-role', { auth_type: 'ec2', bound_ami_id: probe.ami_id, role_tag: 'VaultRole', policies: 'dev,ops' })
  const made = (await world.api('POST', 'role/tag-role/tag', options.tag ?? {})).body.data.tag_value as string
  const tag = options.change ? options.change(made) : made
  if (options.deny) await world.api('POST', `roletag-denylist/${encodeURIComponent(tag)}`)
  if (options.rolePolicies) await world.api('POST', 'role/tag-role', { policies: options.rolePolicies })
  const instance = world.cloud.createInstance({ ami_id: probe.ami_id, tags: { [options.key ?? 'VaultRole']: tag } })
  return world.login({ role: options.role ?? 'tag-role', pkcs7: rsa2048(world, instance) })
}

async function madeTag(world: LoginWorld): Promise<string> {
  await world.api('POST', 'role/abcd-123', { auth_type: 'ec2', policies: 'p', role_tag: 'VaultRole', bound_ami_id: 'abcd-123' })
  return (await world.api('POST', 'role/abcd-123/tag', {})).body.data.tag_value as string
}
const denyTag = (change: (tag: string) => string): Trigger => async (world) => world.api('POST', `roletag-denylist/${encodeURIComponent(change(await madeTag(world)))}`)

async function renewAfter(world: LoginWorld, instance: Instance, change: () => Promise<unknown>): Promise<JsonReply> {
  await createEc2Role(world, 'web', instance)
  const token = (await world.login({ role: 'web', pkcs7: rsa2048(world, instance), nonce: 'n' })).body.auth.client_token as string
  await change()
  const response = await world.doppel.fetch(`${BASE}/v1/auth/token/renew-self`, { method: 'POST', headers: { 'X-Service-Token': token } })
  return { status: response.status, body: await response.json() }
}

const key = (path: string, message: string) => `${path} | ${message}`
const CERT = 'config/certificate/:cert_name'
const DENY = 'roletag-denylist/:role_tag (POST)'
const LOGIN = 'login (ec2)'
const BOUNDS = 'login (ec2; iam with inference)'
const TAGS = 'login (ec2 with a role tag)'

const TRIGGERS: Record<string, Trigger> = {
  [key(CERT, 'invalid certificate; should be one PEM block only')]: (world) => world.api('POST', 'config/certificate/c', { aws_public_cert: 'not a certificate' }),
  [key(CERT, 'x509: malformed certificate')]: (world) =>
    world.api('POST', 'config/certificate/c', { aws_public_cert: '-----BEGIN CERTIFICATE-----\naGVsbG8gd29ybGQ=\n-----END CERTIFICATE-----\n' }),
  [key(DENY, 'invalid tag')]: (world) => world.api('POST', 'roletag-denylist/v1:abc:def'),
  [key(DENY, 'invalid role tag version')]: denyTag((tag) => tag.replace(/^v1/, 'v2')),
  [key(DENY, 'unrecognized item "<item>" in tag')]: denyTag((tag) => tag.replace(':d=false', ':x=1:d=false')),
  [key(DENY, 'strconv.ParseBool: parsing "<value>": invalid syntax')]: denyTag((tag) => tag.replace(':d=false', ':d=maybe')),
  [key(DENY, 'time: invalid duration "<value>"')]: denyTag((tag) => tag.replace(':m=false', ':m=false:t=x')),
  [key(DENY, 'missing role name')]: denyTag((tag) => tag.replace(':r=abcd-123', '')),
  [key(DENY, 'missing nonce')]: denyTag((tag) => tag.replace(/^v1:[^:]+:/, 'v1::')),
  [key(DENY, 'entry not found for "<role>"')]: denyTag((tag) => tag.replace(':r=abcd-123', ':r=Other')),
  [key(DENY, 'role tag signature verification failed')]: denyTag((tag) => tag.replace(':d=false', ':d=true')),
  [key('role/:role/tag', "role tag 'value' exceeding the limit of 255 characters")]: async (world) => {
    const policies = Array.from({ length: 40 }, (_, i) => `policy-${i}`).join(',')
    await world.api('POST', 'role/long', { auth_type: 'ec2', role_tag: 'VaultRole', bound_ami_id: 'ami-1', policies })
    return world.api('POST', 'role/long/tag', { policies })
  },
  [key('config/rotate-root', 'error calling GetUser: <provider error>')]: async (world) => {
    await world.api('POST', 'config/client', { access_key: 'AKIANOTAKEY', secret_key: 'x' })
    return world.api('POST', 'config/rotate-root')
  },
  [key('config/rotate-root', 'error calling CreateAccessKey: <provider error>')]: async (world) => {
    const ellen = world.cloud.createPrincipal({ type: 'user', name: 'ellen' })
    const old = { accessKeyId: ellen.access_key_id, secretAccessKey: ellen.secret_access_key }
    world.cloud.createAccessKey(old, 'ellen')
    await world.api('POST', 'config/client', { access_key: old.accessKeyId, secret_key: old.secretAccessKey })
    return world.api('POST', 'config/rotate-root')
  },
  [key('auth/token/renew-self', 'failed to renew entry: <re-check failure>')]: (world, instance) =>
    renewAfter(world, instance, () => world.api('DELETE', 'role/web')),
  [key(LOGIN, 'failed to decode the PEM encoded PKCS#7 signature')]: (world) => world.login({ role: 'r', pkcs7: 'not base64!' }),
  [key(LOGIN, 'failed to parse the BER encoded PKCS#7 signature: <parser error>')]: (world) => world.login({ role: 'r', pkcs7: 'aGVsbG8=' }),
  [key(LOGIN, 'failed to verify the signature: <pkcs7 error>')]: (world) => world.login({ role: 'r', pkcs7: foreignPkcs7('{}') }),
  [key(LOGIN, 'instance identity document could not be found in the signature')]: async (world) => {
    await trustForeign(world)
    return world.login({ role: 'r', pkcs7: foreignPkcs7('') })
  },
  [key(LOGIN, '<JSON error of the document>')]: async (world) => {
    await trustForeign(world)
    return world.login({ role: 'r', pkcs7: foreignPkcs7('not json') })
  },
  [key(LOGIN, 'missing instance identity document')]: (world) => world.login({ role: 'r', identity: '', signature: 'YQ==' }),
  [key(LOGIN, 'missing SHA256 RSA signature of the instance identity document')]: (world) => world.login({ role: 'r', identity: 'YQ==', signature: '' }),
  [key(LOGIN, 'instance identity verification using SHA256 RSA signature is unsuccessful')]: (world, instance) => {
    const { identity } = identitySignature(world, instance.instance_id)
    return world.login({ role: 'r', identity, signature: Buffer.from('forged').toString('base64') })
  },
  [key(LOGIN, 'missing role name')]: async (world, instance) => {
    await trustForeign(world)
    const document = JSON.stringify({ accountId: instance.account_id, instanceId: instance.instance_id, region: instance.region, pendingTime: instance.pending_time })
    return world.login({ pkcs7: foreignPkcs7(document) })
  },
  [key(BOUNDS, 'IAM instance profile in the instance description is nil')]: async (world) => {
    await world.api('POST', 'role/bound', { auth_type: 'ec2', bound_iam_role_arn: 'arn:aws:iam::123456789012:role/*' })
    return world.login({ role: 'bound', pkcs7: rsa2048(world, world.cloud.createInstance()) })
  },
  [key(TAGS, 'missing tag with key "<role_tag>" on the instance')]: (world, instance) => taggedLogin(world, instance, { key: 'OtherKey' }),
  [key(TAGS, '<deny-list POST tag error>')]: (world, instance) => taggedLogin(world, instance, { change: (tag) => tag.replace(':d=false', ':d=true') }),
  [key(TAGS, 'role on the tag is not matching the role supplied')]: (world, instance) => taggedLogin(world, instance, { role: 'Tag-Role' }),
  [key(TAGS, 'role tag is being used by an unauthorized instance')]: (world, instance) => taggedLogin(world, instance, { tag: { instance_id: 'i-00000000000000000' } }),
  [key(TAGS, 'role tag is deny listed')]: (world, instance) => taggedLogin(world, instance, { deny: true }),
  [key(TAGS, 'policies on the role tag must be subset of policies on the role')]: (world, instance) =>
    taggedLogin(world, instance, { tag: { policies: 'ops' }, rolePolicies: 'dev' }),
}

/**
 * Rows not triggered here, with where or why: those a remote EC2 answer produces are reached through an
 * endpoint override in endpoint-overrides.test.ts; the rest the fake cloud cannot produce, each the same
 * `BAD_INPUT_500` refusal as its reachable siblings.
 */
const REMOTE = 'reached through an EC2 endpoint override (endpoint-overrides.test.ts, "a remote EC2 description")'
const NOT_REACHABLE: Record<string, string> = {
  [key('config/rotate-root', 'nil UserName returned from GetUser')]: "the fake cloud's GetUser always names the user",
  [key('config/rotate-root', 'error deleting old access key ID <id>: <provider error>')]: 'deleting the old key with the new one never fails in the fake cloud',
  [key('auth/token/renew-self', 'past the max TTL, cannot renew')]: 'a token past its max TTL has expired, so renewal answers 403 first',
  [key(BOUNDS, 'AMI ID in the instance description is nil')]: REMOTE,
  [key(BOUNDS, 'subnet ID in the instance description is nil')]: REMOTE,
  [key(BOUNDS, 'VPC ID in the instance description is nil')]: REMOTE,
  [key(BOUNDS, 'IAM instance profile ARN in the instance description is nil')]: REMOTE,
  [key(BOUNDS, 'IAM instance profile ARN in the instance description is empty')]: REMOTE,
  [key(BOUNDS, 'failed to parse IAM instance profile ARN "<arn>": <reason>')]: REMOTE,
  [key(BOUNDS, 'could not fetch IAM client: <reason>')]: 'the in-process IAM client always exists',
  [key(BOUNDS, 'IAM role ARN could not be fetched: <reason>')]: 'a fake-cloud instance profile holds exactly one role',
}

/** The deviation's message as a pattern: `<…>` stands for any text. */
function messagePattern(message: string): RegExp {
  const parts = message.split(/<[^>]+>/).map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
  return new RegExp(`^${parts.join('[\\s\\S]+')}$`)
}

const rows = DEVIATIONS.filter((row) => row.kind === 'bad-input-5xx')

describe('bad input Vault answers with a 500, in each profile', () => {
  it('every such row of deviations.ts has a trigger here, or a reason it cannot be reached', () => {
    const listed = rows.map((row) => key(row.path, row.message)).sort()
    expect([...Object.keys(TRIGGERS), ...Object.keys(NOT_REACHABLE)].sort()).toEqual(listed)
    for (const row of rows) expect([row.doppelStatus, row.realStatus]).toEqual([400, 500])
  })

  for (const row of rows) {
    const trigger = TRIGGERS[key(row.path, row.message)]
    if (!trigger) continue
    for (const { profile, status } of PROFILES) {
      it(`${row.path}: ${row.message} → ${status} (${profile} profile)`, async () => {
        const world = loginWorld({ profile })
        const instance = world.cloud.createInstance({ iam_role_name: 'web-app' })
        const reply = await trigger(world, instance)
        expect(reply.status).toBe(status)
        expect(reply.body.errors).toHaveLength(1)
        const wrapped = status === 500 && !row.path.startsWith('login')
        const text = reply.body.errors[0] as string
        const message = wrapped ? text.replace(/^1 error occurred:\n\t\* ([\s\S]*)\n\n$/, '$1') : text
        if (wrapped) expect(text).toMatch(/^1 error occurred:\n\t\* /)
        if (!row.message.startsWith('<')) expect(message).toMatch(messagePattern(row.message))
      })
    }
  }
})
