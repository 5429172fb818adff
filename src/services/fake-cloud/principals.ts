import { timingSafeEqual } from 'node:crypto'
import { Random } from '../../core/random.ts'
import { isoSeconds } from '../../core/utc-date.ts'
import { cloudErrors } from './cloud-errors.ts'
import {
  insert,
  principalNameKey,
  profileNameKey,
  type AccessKeyRecord,
  type CloudState,
  type InstanceProfileRecord,
  type PrincipalRecord,
} from './cloud-state.ts'
import type { AwsCredentials, CallerIdentity, PolicyDocument } from './glossary.ts'
import { checkPropagated } from './iam/key-propagation.ts'
import { isExpiredSessionToken, sessionStamp, sweepExpiredSessions, trackSession } from './sts/session-tokens.ts'
import { createIds, DEFAULT_ACCOUNT } from './ids.ts'
import { cloudPath } from './urls.ts'

/** Who signed a request: the key, the principal it belongs to, and how STS names it. */
export interface Caller {
  key: AccessKeyRecord
  principal: PrincipalRecord
  account: string
  identity: CallerIdentity
}

const DEFAULT_SERVICE_USER = 'doppel-service'
const DEFAULT_ROLE_MAX_SESSION = 3600

/** `arn:aws:iam::<account>:<type><path><name>`; the path is `/` or `/a/b/`. */
export function iamArn(account: string, type: 'user' | 'role' | 'instance-profile', path: string, name: string): string {
  return `arn:aws:iam::${account}:${type}${path}${name}`
}

/** A user or role by account and friendly name (case-insensitive, as IAM names are unique). */
export function findPrincipal(state: CloudState, account: string, type: 'user' | 'role', name: string): PrincipalRecord | undefined {
  return state.principals.findOneBy('name', principalNameKey(account, type, name))
}

/** An instance profile by account and name. */
export function findInstanceProfile(state: CloudState, account: string, name: string): InstanceProfileRecord | undefined {
  return state.profiles.findOneBy('name', profileNameKey(account, name))
}

/** A new IAM user or role; the caller has checked the name is free. */
export function addPrincipal(
  state: CloudState,
  input: {
    type: 'user' | 'role'
    name: string
    account: string
    path: string
    maxSessionDuration?: number
    policies?: PolicyDocument[]
    trustPolicy?: PolicyDocument
  },
  ids = state.ids,
): PrincipalRecord {
  const { type, name, account, path } = input
  const arn = iamArn(account, type, path, name)
  const record: PrincipalRecord = {
    type,
    name,
    account_id: account,
    path,
    arn,
    unique_id: ids.uniqueId(type === 'user' ? 'AIDA' : 'AROA', account),
    create_date: isoSeconds(state.emulator.clock.nowMs()),
    max_session_duration: type === 'role' ? (input.maxSessionDuration ?? DEFAULT_ROLE_MAX_SESSION) : null,
    ...(input.policies !== undefined && { policies: input.policies }),
    ...(input.trustPolicy !== undefined && { trust_policy: input.trustPolicy }),
  }
  return insert(state, state.principals, record, arn)
}

/** A new instance profile holding `roleArn`; the caller has checked the name is free. */
export function addInstanceProfile(state: CloudState, account: string, name: string, roleArn: string | null): InstanceProfileRecord {
  const arn = iamArn(account, 'instance-profile', '/', name)
  const record: InstanceProfileRecord = {
    name,
    account_id: account,
    path: '/',
    arn,
    unique_id: state.ids.uniqueId('AIPA', account),
    create_date: isoSeconds(state.emulator.clock.nowMs()),
    role_arn: roleArn,
  }
  return insert(state, state.profiles, record, arn)
}

/** A new long-term `AKIA` key of a user, usable at once. */
export function addLongTermKey(state: CloudState, user: PrincipalRecord, ids = state.ids): AccessKeyRecord {
  const record: AccessKeyRecord = {
    access_key_id: ids.accessKeyId('AKIA', user.account_id),
    secret_access_key: ids.secretAccessKey(),
    account_id: user.account_id,
    owner_arn: user.arn,
    kind: 'long-term',
    status: 'Active',
    create_date: isoSeconds(state.emulator.clock.nowMs()),
    session_token: null,
    session_name: null,
    expires_ms: null,
    chained: false,
  }
  return insert(state, state.keys, record, record.access_key_id)
}

/** A new assumed-role session (`ASIA` key + session token) lasting `seconds`; expired sessions are tidied first. */
export function addSession(state: CloudState, role: PrincipalRecord, sessionName: string, seconds: number, chained = false): AccessKeyRecord {
  const now = state.emulator.clock.nowMs()
  sweepExpiredSessions(state, now)
  const accessKeyId = state.ids.accessKeyId('ASIA', role.account_id)
  const secretAccessKey = state.ids.secretAccessKey()
  const expiresMs = Math.floor(now / 1000) * 1000 + seconds * 1000
  const record: AccessKeyRecord = {
    access_key_id: accessKeyId,
    secret_access_key: secretAccessKey,
    account_id: role.account_id,
    owner_arn: role.arn,
    kind: 'session',
    status: 'Active',
    create_date: isoSeconds(now),
    session_token: state.ids.sessionToken(sessionStamp(accessKeyId, expiresMs)),
    session_name: sessionName,
    expires_ms: expiresMs,
    chained,
  }
  trackSession(state, record)
  return insert(state, state.keys, record, record.access_key_id)
}

/** A user's `AKIA` keys. */
export function longTermKeysOf(state: CloudState, user: PrincipalRecord): AccessKeyRecord[] {
  return state.keys.findBy('owner', user.arn).filter((key) => key.kind === 'long-term')
}

/** Removes a principal with every key and session it owns, so they stop working at once. */
export function removePrincipal(state: CloudState, principal: PrincipalRecord): void {
  for (const key of state.keys.findBy('owner', principal.arn)) state.keys.delete(key.access_key_id)
  state.principals.delete(principal.arn)
}

/** How STS names the holder of a key (docs/reference/fake-cloud.md §4.3). */
function callerIdentity(key: AccessKeyRecord, principal: PrincipalRecord): CallerIdentity {
  if (key.kind === 'session') {
    return {
      arn: `arn:aws:sts::${principal.account_id}:assumed-role/${principal.name}/${key.session_name}`,
      userId: `${principal.unique_id}:${key.session_name}`,
      account: principal.account_id,
    }
  }
  return { arn: principal.arn, userId: principal.unique_id, account: principal.account_id }
}

/**
 * The holder of an access key, checking the session token as STS does (docs/reference/fake-cloud.md §5.1 step 5). The secret is not
 * checked here: SigV4 proves it, the direct face compares it.
 */
export function resolveCaller(state: CloudState, accessKeyId: string, sessionToken: string | undefined): Caller {
  const key = state.keys.get(accessKeyId)
  const rule = 'access key'
  if (key === undefined && isExpiredSessionToken(accessKeyId, sessionToken, state.emulator.clock.nowMs())) {
    throw cloudErrors.expiredToken().explain({ rule: 'session expiry', seen: `${accessKeyId}: an expired session`, hint: 'assume the role again' })
  }
  if (key === undefined) {
    throw cloudErrors.invalidClientTokenId().explain({ rule, seen: `${accessKeyId}, unknown to the fake cloud`, hint: `create it (doppel.cloud.createPrincipal, a fixture, or POST ${cloudPath('principals')})` })
  }
  if (key.status !== 'Active') throw cloudErrors.invalidClientTokenId().explain({ rule: 'access key status', seen: `${accessKeyId} is ${key.status}`, expected: 'Active' })
  if (key.kind === 'session') {
    if (sessionToken === undefined || !sameText(sessionToken, key.session_token!)) {
      throw cloudErrors.invalidClientTokenId().explain({ rule: 'session token', seen: sessionToken === undefined ? 'none' : 'not the one of this session', expected: `the session token issued with ${accessKeyId}` })
    }
    if (state.emulator.clock.nowMs() >= key.expires_ms!) {
      throw cloudErrors.expiredToken().explain({ rule: 'session expiry', seen: `${accessKeyId} expired at ${new Date(key.expires_ms!).toISOString()}`, hint: 'assume the role again' })
    }
  } else if (sessionToken !== undefined && sessionToken !== '') {
    throw cloudErrors.invalidClientTokenId().explain({ rule: 'session token', seen: 'a session token with a long-term key', expected: 'none' })
  }
  checkPropagated(state, key)
  const principal = state.principals.get(key.owner_arn)
  if (principal === undefined) throw cloudErrors.invalidClientTokenId().explain({ rule: 'key owner', seen: `${key.owner_arn}, deleted` })
  return { key, principal, account: principal.account_id, identity: callerIdentity(key, principal) }
}

/** The direct face's authentication: the same checks as SigV4, with the secret compared instead of proven. */
export function authenticate(state: CloudState, credentials: AwsCredentials): Caller {
  const caller = resolveCaller(state, credentials.accessKeyId, credentials.sessionToken)
  if (!sameText(credentials.secretAccessKey, caller.key.secret_access_key)) {
    throw cloudErrors.signatureMismatch().explain({ rule: 'secret access key', seen: `a secret that is not the one of ${credentials.accessKeyId}` })
  }
  return caller
}

/**
 * The fake cloud's default service identity: IAM user `doppel-service` in the default account, with a key
 * that depends only on the emulator's seed (drawn from its own generator, so the moment of first use does
 * not change it).
 */
export function defaultServiceKey(state: CloudState): AccessKeyRecord {
  const seed = state.emulator.random.seed
  // Drawn only on first use: every login with the default identity asks for this key.
  let ids: ReturnType<typeof createIds> | undefined
  const own = () => (ids ??= createIds(new Random(seed === undefined ? undefined : `${seed}:${DEFAULT_SERVICE_USER}`)))
  const user =
    findPrincipal(state, DEFAULT_ACCOUNT, 'user', DEFAULT_SERVICE_USER) ??
    addPrincipal(state, { type: 'user', name: DEFAULT_SERVICE_USER, account: DEFAULT_ACCOUNT, path: '/' }, own())
  return longTermKeysOf(state, user)[0] ?? addLongTermKey(state, user, own())
}

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a)
  const right = Buffer.from(b)
  return left.length === right.length && timingSafeEqual(left, right)
}
