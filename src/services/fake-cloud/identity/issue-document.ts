import { sign } from 'node:crypto'
import { cloudErrors } from '../cloud-errors.ts'
import type { CloudState, InstanceRecord } from '../cloud-state.ts'
import type { IdentityFormat } from '../glossary.ts'
import { buildSignedData } from './signed-data.ts'
import { getSigner } from './signing-material.ts'

/**
 * The instance identity document and its four signatures, as the IMDS serves them (docs/reference/fake-cloud.md §2.3, docs/reference/fake-cloud.md §2.4).
 * All five carry the same document bytes. `dsa2048` is not researched in the reference beyond its name: it is
 * built as `pkcs7` is, with a DSA-2048 key and SHA-256. Signed values are cached per instance until its document
 * changes (it changes when pending_time moves, at a stop/start).
 */
export const IDENTITY_FORMATS: readonly IdentityFormat[] = ['document', 'signature', 'pkcs7', 'rsa2048', 'dsa2048']

/** AWS's pretty-printing: two-space indent, `"key" : value`, no trailing newline. */
export function formatAwsJson(fields: Record<string, unknown>): string {
  const lines = Object.entries(fields).map(([key, value]) => `  ${JSON.stringify(key)} : ${JSON.stringify(value)}`)
  return `{\n${lines.join(',\n')}\n}`
}

function identityDocumentText(instance: InstanceRecord): string {
  return formatAwsJson({
    accountId: instance.account_id,
    architecture: 'x86_64',
    availabilityZone: instance.availability_zone,
    billingProducts: null,
    devpayProductCodes: null,
    marketplaceProductCodes: null,
    imageId: instance.ami_id,
    instanceId: instance.instance_id,
    instanceType: instance.instance_type,
    kernelId: null,
    pendingTime: instance.pending_time,
    privateIp: instance.private_ip,
    ramdiskId: null,
    region: instance.region,
    version: '2017-09-30',
  })
}

/** Base64 in 76-column lines, no trailing newline. */
function wrapBase64(bytes: Buffer): string {
  return bytes.toString('base64').replace(/(.{76})(?=.)/g, '$1\n')
}

/** The document (`document`) or one of its signatures, as served. */
export function identityDocument(state: CloudState, instance: InstanceRecord, format: IdentityFormat): string {
  const text = identityDocumentText(instance)
  if (format === 'document') return text
  let cached = state.documents.get(instance.instance_id)
  if (cached === undefined || cached.text !== text) {
    cached = { text, values: new Map() }
    state.documents.set(instance.instance_id, cached)
  }
  let value = cached.values.get(format)
  if (value === undefined) {
    value = signDocument(Buffer.from(text, 'utf8'), format, state.emulator.clock.nowMs())
    cached.values.set(format, value)
    // The signature embeds the signing time: a restart serves these bytes, so they are saved state.
    state.emulator.noteChange()
  }
  return value
}

function signDocument(document: Buffer, format: IdentityFormat, nowMs: number): string {
  switch (format) {
    case 'signature':
      return wrapBase64(sign('sha256', document, getSigner('signature').key))
    case 'rsa2048':
      return wrapBase64(buildSignedData(document, getSigner('rsa2048'), 'sha256', nowMs))
    case 'pkcs7':
      return wrapBase64(buildSignedData(document, getSigner('pkcs7'), 'sha1', nowMs))
    case 'dsa2048':
      return wrapBase64(buildSignedData(document, getSigner('dsa2048'), 'sha256', nowMs))
    default:
      throw cloudErrors.badInput(`Failed to sign the identity document: "format" must be one of ${IDENTITY_FORMATS.join(', ')}`)
  }
}

/** PEM certificates the auth service trusts by default, by registered-certificate type. */
export function builtInCertificates(): { pkcs7: string[]; identity: string[] } {
  return {
    pkcs7: [getSigner('rsa2048').certificatePem, getSigner('pkcs7').certificatePem],
    identity: [getSigner('signature').certificatePem],
  }
}
