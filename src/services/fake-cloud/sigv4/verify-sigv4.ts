import { hash, timingSafeEqual, type KeyObject } from 'node:crypto'
import { cloudErrors } from '../cloud-errors.ts'
import type { CloudState } from '../cloud-state.ts'
import { stsEndpointRegion } from '../urls.ts'
import { regionDnsSuffix } from '../regions.ts'
import { resolveCaller, type Caller } from '../principals.ts'
import { readAuthMaterial, type AuthMaterial } from './auth-material.ts'
import { formatBasicIso } from '../../../core/utc-date.ts'
import { canonicalHeaders, canonicalQuery, canonicalUri, pathSegments } from './canonical-request.ts'
import { computeSignature, deriveSigningKey, stringToSign } from './signature.ts'
import type { Explanation } from '../../../core/explanation.ts'

/** A received request, with its body already read as bytes (the payload hash needs them raw). */
export interface SignedRequest {
  method: string
  url: URL
  headers: Headers
  body: Uint8Array
}

export interface VerifiedRequest {
  caller: Caller
  /** The credential scope's region: where EC2 looks for instances. */
  region: string
  material: AuthMaterial
}

const SKEW_MS = 15 * 60 * 1000
const SIGNING_KEY_CACHE_LIMIT = 10_000

/**
 * Verifies a SigV4 request for real (docs/reference/fake-cloud.md §5): scope, time against the emulator clock, key and session
 * token, then the signature over the canonical request. The signature may have been made for the received
 * path or for that path with the `mount` prefix removed once or twice (a Vault-style replay of a request
 * signed for the root or for the mount, docs/reference/fake-cloud.md §1.3). Throws the AWS error of the first failed check.
 */
export function verifySigV4(state: CloudState, request: SignedRequest, service: string, mount: string[] = []): VerifiedRequest {
  const material = readAuthMaterial(request.url, request.headers)
  const requestDate = material.requestTime.slice(0, 8)
  if (material.scopeDate !== requestDate) {
    throw cloudErrors.scopeMismatch(
      `Date in Credential scope does not match YYYYMMDD from ISO-8601 version of date from HTTP: '${material.scopeDate}' != '${requestDate}', from '${material.requestTime}'.`,
    ).explain({ rule: 'credential scope date', seen: material.scopeDate, expected: requestDate })
  }
  if (service === 'sts') checkStsScopeRegion(material.region, request.url.host)
  if (material.service !== service) {
    throw cloudErrors.scopeMismatch(`Credential should be scoped to correct service: '${service}'. `).explain({ rule: 'credential scope service', seen: material.service, expected: service })
  }
  if (material.terminator !== 'aws4_request') {
    throw cloudErrors.scopeMismatch(`Credential should be scoped with a valid terminator: 'aws4_request', not '${material.terminator}'.`).explain({
      rule: 'credential scope terminator',
      seen: material.terminator,
      expected: 'aws4_request',
    })
  }
  checkSkew(state.emulator.clock.nowMs(), material)
  const caller = resolveCaller(state, material.accessKeyId, material.sessionToken)
  const signedHeaders = material.signedHeaders.split(';').map((name) => name.trim().toLowerCase())
  if (!signedHeaders.includes('host')) {
    throw cloudErrors.scopeMismatch("'Host' or ':authority' must be a 'SignedHeader' in the AWS Authorization.").explain({
      rule: 'signed headers include host',
      seen: `SignedHeaders=${material.signedHeaders}`,
    })
  }

  const key = signingKey(state, caller.key.secret_access_key, material)
  const scope = `${material.scopeDate}/${material.region}/${material.service}/${material.terminator}`
  const rest = [
    canonicalQuery(request.url.search),
    canonicalHeaders(signedHeaders, request.headers, request.url.host),
    material.signedHeaders,
    hash('sha256', request.body, 'hex'),
  ].join('\n')
  const claimed = Buffer.from(material.signature.toLowerCase(), 'utf8')
  const canonicals: string[] = []
  for (const uri of candidateUris(request.url.pathname, mount, state.emulator.basePath)) {
    const canonical = `${request.method.toUpperCase()}\n${uri}\n${rest}`
    const computed = Buffer.from(computeSignature(key, material.requestTime, scope, canonical), 'utf8')
    if (computed.length === claimed.length && timingSafeEqual(computed, claimed)) return { caller, region: material.region, material }
    canonicals.push(canonical)
  }
  throw cloudErrors.signatureMismatch().explain(mismatchExplanation(material, scope, canonicals))
}

/**
 * A signature mismatch, with what doppel signed: the canonical request and string to sign for each path it
 * tried (a client's own signer's debug output compares line by line).
 */
function mismatchExplanation(material: AuthMaterial, scope: string, canonicals: string[]): Explanation {
  const details: Record<string, string> = {}
  canonicals.forEach((canonical, i) => {
    const suffix = i === 0 ? '' : ` (path ${canonical.split('\n')[1]})`
    details[`canonical request${suffix}`] = canonical
    details[`string to sign${suffix}`] = stringToSign(material.requestTime, scope, canonical)
  })
  return {
    rule: 'sigv4 signature',
    seen: `Signature=${material.signature.slice(0, 8)}… by ${material.accessKeyId}`,
    expected: 'the signature of the canonical request below under that key\'s secret',
    hint: 'compare with your signer\'s canonical request: a header changed after signing, another body, path or query, or another secret',
    details,
  }
}

/**
 * STS refuses a scope region it does not know, or one other than its endpoint's (the global endpoint signs
 * as us-east-1): the reason `use_sts_region_from_client` exists (docs/reference/cloud-auth.md §5 B.5).
 * `host` is where the request was sent, which a replay's `Host` header does not change. Also applied to an
 * in-process call sent to an STS host name (`aws-host-call.ts`).
 */
export function checkStsScopeRegion(region: string, host: string): void {
  const expected = stsEndpointRegion(host)
  if (regionDnsSuffix(region) === undefined || (expected !== undefined && expected !== region)) {
    const global = host.toLowerCase().replace(/:\d+$/, '') === 'sts.amazonaws.com'
    throw cloudErrors.scopeMismatch(`Credential should be scoped to a valid region, not '${region}'. `).explain({
      rule: 'credential scope region',
      seen: region,
      ...(expected !== undefined && { expected }),
      hint:
        expected === undefined
          ? `${region} is not a region the fake cloud knows`
          : `credential scope ${region} sent to ${host}, which signs as ${expected}${global ? ' (the global endpoint)' : ''}: sign for ${expected}, or send to sts.${region}.amazonaws.com (the auth method: set sts_region or use_sts_region_from_client on config/client)`,
    })
  }
}

function checkSkew(now: number, material: AuthMaterial): void {
  const explanation = (expected: string) => ({
    rule: 'X-Amz-Date within 15 minutes of the clock',
    seen: material.requestTime,
    expected,
    hint: "sign with doppel's clock (the control API's clock route): a frozen or moved emulator clock makes a freshly signed request stale",
  })
  if (material.requestMs < now - SKEW_MS) {
    throw cloudErrors.signatureExpired(material.requestTime, formatBasicIso(now - SKEW_MS), formatBasicIso(now)).explain(explanation(`${formatBasicIso(now - SKEW_MS)} or later`))
  }
  if (material.requestMs > now + SKEW_MS) {
    throw cloudErrors.signatureNotYetCurrent(material.requestTime, formatBasicIso(now + SKEW_MS), formatBasicIso(now)).explain(explanation(`${formatBasicIso(now + SKEW_MS)} or earlier`))
  }
}

/**
 * The path as the client sent it (under a tenant's base path, which the emulator's routing took off), the
 * received path, then the same with the mount prefix removed once and twice.
 */
function candidateUris(rawPath: string, mount: string[], basePath: string): string[] {
  const trailing = rawPath.endsWith('/')
  let segments = pathSegments(rawPath)
  const uris = [canonicalUri(segments, trailing)]
  if (basePath !== '') uris.unshift(canonicalUri(pathSegments(basePath + rawPath), trailing))
  for (let i = 0; i < 2 && mount.length > 0 && mount.every((part, j) => segments[j] === part); i++) {
    segments = segments.slice(mount.length)
    uris.push(canonicalUri(segments, trailing))
  }
  return uris
}

/** kSigning of (secret, date, region, service), cached: the HMAC chain is most of a verification's cost. */
function signingKey(state: CloudState, secret: string, material: AuthMaterial): KeyObject {
  const id = `${secret}\n${material.scopeDate}\n${material.region}\n${material.service}`
  let key = state.signingKeys.get(id)
  if (key === undefined) {
    key = deriveSigningKey(secret, material.scopeDate, material.region, material.service)
    if (state.signingKeys.size >= SIGNING_KEY_CACHE_LIMIT) state.signingKeys.clear()
    state.signingKeys.set(id, key)
  }
  return key
}
