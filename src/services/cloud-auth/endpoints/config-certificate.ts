/**
 * `config/certificate/:cert_name` and LIST `config/certificates` (docs/reference/cloud-auth.md §3.4): extra certificates
 * trusted at ec2 login, on top of the fake cloud's built-in ones.
 */
import { decodeStdBase64 } from '../../../core/go/go-base64.ts'
import type { CertificateEntry, CertificateType } from '../glossary.ts'
import { MESSAGES } from '../auth-messages.ts'
import { readPemCertificate } from '../pem/pem-certificate.ts'
import type { OperationInput } from '../routing/endpoint.ts'
import { keyedEntries } from '../routing/keyed-entries.ts'
import { AuthRefusal, BAD_INPUT_500 } from '../auth-refusal.ts'

const TYPES: readonly string[] = ['pkcs7', 'identity']

/**
 * The certificate must be exactly one PEM block holding an X.509 certificate.
 * @note The real service answers these two failures with a 500; the service profile 400 (see deviations.ts).
 */
function checkCertificate(pem: string): void {
  const read = readPemCertificate(pem)
  if (!read.found || read.rest.length !== 0) throw new AuthRefusal(MESSAGES.notOnePemBlock, BAD_INPUT_500)
  if (!read.certificate) throw new AuthRefusal(MESSAGES.malformedCertificate, BAD_INPUT_500)
}

function write({ state, fields, params, operation }: OperationInput): undefined {
  const name = params.cert_name!
  const stored = state.certificates.get(name)
  const entry: CertificateEntry = stored ? { ...stored } : { name, pem: '', type: 'pkcs7' }
  const type = fields.string('type')
  if (type !== undefined) entry.type = type.toLowerCase() as CertificateType
  else if (operation === 'create') entry.type = 'pkcs7'
  if (!TYPES.includes(entry.type)) throw new AuthRefusal(MESSAGES.invalidCertificateType(entry.type))
  const given = fields.string('aws_public_cert')
  if (given === undefined) throw new AuthRefusal(MESSAGES.missingPublicCert)
  entry.pem = decodeStdBase64(given)?.toString('utf8') ?? given
  if (entry.pem === '') throw new AuthRefusal(MESSAGES.invalidPublicCert)
  checkCertificate(entry.pem)
  state.certificates.set(entry)
  return undefined
}

/** `config/certificate/:cert_name` (read, create/update, delete) and LIST `config/certificates`, sorted. */
export const { entry: configCertificate, list: listCertificates } = keyedEntries<CertificateEntry>({
  path: 'config/certificate/:cert_name',
  listPath: 'config/certificates/',
  fields: { cert_name: 'string', aws_public_cert: 'string', type: 'string' },
  collection: (state) => state.certificates,
  key: (params) => params.cert_name!,
  readData: (entry) => ({ aws_public_cert: entry.pem, type: entry.type }),
  writes: { create: write, update: write },
  checksExistence: true,
})
