import { createHash } from 'node:crypto'
import type { Random } from '../../core/random.ts'

/**
 * Realistic AWS identifiers, drawn from the emulator's seeded random source.
 *
 * @note Access key ids and unique ids encode the account the way current AWS keys do (docs/reference/fake-cloud.md §8):
 * characters 5–12 are the base32 form of `floor(account / 2) + 2^39`, character 13 comes from the upper half
 * of the alphabet for odd accounts and the lower half for even ones.
 */
const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'
const ACCOUNT_OFFSET = 549_755_813_888
const SECRET_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789/+'
const HEX = '0123456789abcdef'

export const DEFAULT_ACCOUNT = '123456789012'
/** What current STS session tokens begin with. */
export const SESSION_TOKEN_PREFIX = 'IQoJb3JpZ2luX2Vj'
export const DEFAULT_REGION = 'us-east-1'

export type UniqueIdPrefix = 'AIDA' | 'AROA' | 'AIPA'
export type AccessKeyPrefix = 'AKIA' | 'ASIA'

/** Id generators drawing from `random`. */
export function createIds(random: Random) {
  const accountCode = (account: string): string => {
    let value = Math.floor(Number(account) / 2) + ACCOUNT_OFFSET
    let out = ''
    for (let i = 0; i < 8; i++) {
      out = BASE32[value % 32] + out
      value = Math.floor(value / 32)
    }
    const parity = Number(account.slice(-1)) % 2 === 1 ? BASE32.slice(16) : BASE32.slice(0, 16)
    return out + random.string(1, parity)
  }
  return {
    /** `<prefix>-` + 17 lower-case hex: `i-`, `ami-`, `vpc-`, `subnet-`, `sg-`, `r-`, `eni-`. */
    ec2: (prefix: string): string => `${prefix}-${random.string(17, HEX)}`,
    accessKeyId: (prefix: AccessKeyPrefix, account: string): string => prefix + accountCode(account) + random.string(7, BASE32),
    uniqueId: (prefix: UniqueIdPrefix, account: string): string => prefix + accountCode(account) + random.string(8, BASE32),
    secretAccessKey: (): string => random.string(40, SECRET_ALPHABET),
    /** Opaque, base64 with `/+=` in it, shaped like current STS tokens; `stamp` replaces the first random bytes. */
    sessionToken: (stamp: Buffer): string => {
      const bytes = random.bytes(312)
      stamp.copy(bytes)
      return SESSION_TOKEN_PREFIX + bytes.toString('base64')
    },
    privateIp: (): string => `10.0.${random.int(256)}.${4 + random.int(250)}`,
    mac: (): string => ['0e', ...Array.from({ length: 5 }, () => random.string(2, HEX))].join(':'),
    requestId: (): string => random.uuid(),
  }
}

export type Ids = ReturnType<typeof createIds>

/**
 * Bytes that follow from values already drawn (an instance's MAC address and interface id...) and `label`:
 * what a new field derives from, so that adding it moves no other generated id and a snapshot restores it.
 */
export function derivedBytes(label: string, ...drawn: string[]): Buffer {
  return createHash('sha256').update([label, ...drawn].join('\n')).digest()
}

/** The account an `AKIA`/`ASIA` key id encodes, or undefined when it encodes none. */
export function accountOfKeyId(keyId: string): string | undefined {
  if (!/^(AKIA|ASIA)[A-Z2-7]{16}$/.test(keyId)) return undefined
  let value = 0
  for (const char of keyId.slice(4, 12)) value = value * 32 + BASE32.indexOf(char)
  const odd = BASE32.indexOf(keyId[12]!) >= 16 ? 1 : 0
  const account = (value - ACCOUNT_OFFSET) * 2 + odd
  return account >= 0 ? String(account).padStart(12, '0') : undefined
}
