import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { parseTrustedCertificate } from '../login/ec2/trusted-certificate.ts'
import { readPemCertificate } from './pem-certificate.ts'

const pem = readFileSync(new URL('../../../../certs/pkcs7.pem', import.meta.url), 'utf8')
/** Go's pem.Decode skips a block whose body is not base64 and takes the next; OpenSSL's reader stops there. */
const afterBadBlock = `-----BEGIN X-----\n!!!\n-----END X-----\n${pem}`

describe('one reading of a certificate PEM', () => {
  it('finds the certificate after a block that does not decode, as the endpoint accepted it', () => {
    const read = readPemCertificate(afterBadBlock)
    expect(read).toMatchObject({ found: true, rest: '' })
    expect(read.certificate?.serialNumber).toBe(readPemCertificate(pem).certificate?.serialNumber)
    expect(parseTrustedCertificate(afterBadBlock)?.serialHex).toBe(parseTrustedCertificate(pem)?.serialHex)
  })

  it('tells no block, text after the block and a block that is no certificate apart', () => {
    expect(readPemCertificate('no pem here')).toMatchObject({ found: false, certificate: undefined })
    expect(readPemCertificate(`${pem}trailing`)).toMatchObject({ found: true, rest: 'trailing' })
    expect(readPemCertificate('-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n')).toMatchObject({ found: true, certificate: undefined })
    expect(parseTrustedCertificate('no pem here')).toBeUndefined()
  })
})
