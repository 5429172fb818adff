import { createPrivateKey, createPublicKey } from 'node:crypto'
import { placeKey, type CloudState, type InstanceRecord } from '../cloud-state.ts'
import { derivedBytes } from '../ids.ts'

/**
 * EC2 key pairs as far as an instance shows them (IMDS `public-keys/0/openssh-key`): an ED25519 key, one of the
 * two types EC2 makes. A key pair is one per account, region and name: instances launched with the same name
 * share it. Only its 32-byte private seed is stored; the public key is derived when served (about half a
 * millisecond), so creating instances, and so start-up, generates no keys.
 *
 * @note TEST-ONLY keys, like `certs/`: the seed follows from ids the instance shows, so it is no secret.
 */

/** PKCS#8 PrivateKeyInfo of an ED25519 key up to its 32-byte seed (RFC 8410). */
const ED25519_PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex')
const KEY_TYPE = 'ssh-ed25519'

/**
 * The seed of key pair `name` in the account and region: an existing instance's, else one following from
 * the new instance's already drawn MAC address and interface id.
 */
export function keyPairSeed(state: CloudState, record: Pick<InstanceRecord, 'account_id' | 'region' | 'mac' | 'network_interface_id'>, name: string): string {
  const sibling = state.instances.findBy('place', placeKey(record.account_id, record.region)).find((i) => i.key_name === name && i.key_pair_seed !== null)
  return sibling?.key_pair_seed ?? derivedBytes(`key-pair\n${name}`, record.mac, record.network_interface_id).toString('base64')
}

/** The public key as IMDS serves it: `ssh-ed25519 <base64 of the SSH wire format> <key name>`. */
export function openSshPublicKey(seed: string, name: string): string {
  const privateKey = createPrivateKey({ key: Buffer.concat([ED25519_PKCS8_PREFIX, Buffer.from(seed, 'base64')]), format: 'der', type: 'pkcs8' })
  const { x } = createPublicKey(privateKey).export({ format: 'jwk' })
  // RFC 8709: string "ssh-ed25519", string <32-byte public key>; each string is a uint32 length and bytes.
  const wire = Buffer.concat([sshString(Buffer.from(KEY_TYPE)), sshString(Buffer.from(x!, 'base64url'))])
  return `${KEY_TYPE} ${wire.toString('base64')} ${name}`
}

function sshString(bytes: Buffer): Buffer {
  const length = Buffer.alloc(4)
  length.writeUInt32BE(bytes.length)
  return Buffer.concat([length, bytes])
}
