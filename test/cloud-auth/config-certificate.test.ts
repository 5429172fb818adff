import { describe, expect, it } from 'vitest'
import { getFakeCloud } from '../../src/services/fake-cloud/index.ts'
import { errors, managementClient } from './management-client.ts'

function certificates() {
  const api = managementClient()
  const builtIn = getFakeCloud(api.doppel).builtInCertificates()
  const [first, second] = [...builtIn.pkcs7, ...builtIn.identity]
  return { api, first: first!, second: second! }
}

/** Base64 with line breaks, as the real service's test sends it. */
function wrappedBase64(text: string): string {
  return Buffer.from(text).toString('base64').replace(/.{64}/g, '$&\n')
}

describe('config/certificate/:cert_name and config/certificates', () => {
  it('takes base64 of a PEM, reads the PEM back, lists and deletes (TestBackend_pathConfigCertificate)', async () => {
    const { api, first, second } = certificates()
    expect((await api.write('config/certificate/cert1', { type: 'pkcs7', aws_public_cert: wrappedBase64(first) })).status).toBe(204)
    const read = await api.read('config/certificate/cert1')
    expect(read.body.data).toStrictEqual({ aws_public_cert: first, type: 'pkcs7' })
    expect(read.body.data.aws_public_cert).toMatch(/^-----BEGIN CERTIFICATE-----\n[\s\S]+-----END CERTIFICATE-----\n$/)
    expect((await api.write('config/certificate/cert2', { aws_public_cert: second, type: 'IDENTITY' })).status).toBe(204)
    expect((await api.read('config/certificate/cert2')).body.data).toStrictEqual({ aws_public_cert: second, type: 'identity' })
    expect((await api.list('config/certificates')).body.data.keys).toEqual(['cert1', 'cert2'])
    expect((await api.remove('config/certificate/cert1')).status).toBe(204)
    expect((await api.remove('config/certificate/cert2')).status).toBe(204)
    expect((await api.remove('config/certificate/cert2')).status).toBe(204)
    expect((await api.list('config/certificates')).status).toBe(404)
    expect((await api.read('config/certificate/cert1')).status).toBe(404)
  })

  it('does not list the built-in certificates', async () => {
    expect((await certificates().api.list('config/certificates')).status).toBe(404)
  })

  it('defaults type to pkcs7 on create and keeps the stored type on update', async () => {
    const { api, first } = certificates()
    await api.write('config/certificate/c', { aws_public_cert: first, type: 'identity' })
    await api.write('config/certificate/c', { aws_public_cert: first })
    expect((await api.read('config/certificate/c')).body.data.type).toBe('identity')
    await api.write('config/certificate/d', { aws_public_cert: first })
    expect((await api.read('config/certificate/d')).body.data.type).toBe('pkcs7')
  })

  it('tolerates text before the block and the missing final newline, as Go’s PEM decoder does', async () => {
    const { api, first } = certificates()
    const text = `leading notes\n${first.trimEnd()}`
    expect((await api.write('config/certificate/c', { aws_public_cert: text })).status).toBe(204)
    expect((await api.read('config/certificate/c')).body.data.aws_public_cert).toBe(text)
  })

  describe('refuses, storing nothing', () => {
    const cases: [string, (c: { first: string; second: string }) => Record<string, unknown>, string][] = [
      ['a bad type', (c) => ({ aws_public_cert: c.first, type: 'x509' }), 'invalid certificate type "x509"'],
      ['an empty type', (c) => ({ aws_public_cert: c.first, type: '' }), 'invalid certificate type ""'],
      ['a missing certificate', () => ({ type: 'pkcs7' }), 'missing aws_public_cert'],
      ['an empty certificate', () => ({ aws_public_cert: '' }), 'invalid aws_public_cert'],
      ['text that is no PEM (real: 500)', () => ({ aws_public_cert: 'hello' }), 'invalid certificate; should be one PEM block only'],
      ['two blocks (real: 500)', (c) => ({ aws_public_cert: c.first + c.second }), 'invalid certificate; should be one PEM block only'],
      ['a blank line after the block (real: 500)', (c) => ({ aws_public_cert: `${c.first}\n` }), 'invalid certificate; should be one PEM block only'],
      ['a block that is no certificate (real: 500)', () => ({ aws_public_cert: '-----BEGIN CERTIFICATE-----\naGVsbG8=\n-----END CERTIFICATE-----\n' }), 'x509: malformed certificate'],
      ['a block with a bad body (real: 500)', () => ({ aws_public_cert: '-----BEGIN CERTIFICATE-----\n%%%\n-----END CERTIFICATE-----\n' }), 'invalid certificate; should be one PEM block only'],
    ]
    for (const [name, body, message] of cases) {
      it(name, async () => {
        const { api, first, second } = certificates()
        await api.read('config/certificate/c')
        const before = api.doppel.store.snapshot()
        const answer = await api.write('config/certificate/c', body({ first, second }))
        expect(answer.status).toBe(400)
        expect(answer.body).toEqual(errors(message))
        expect(api.doppel.store.snapshot()).toEqual(before)
      })
    }

    it('needs the certificate on update too', async () => {
      const { api, first } = certificates()
      await api.write('config/certificate/c', { aws_public_cert: first })
      expect((await api.write('config/certificate/c', { type: 'identity' })).body).toEqual(errors('missing aws_public_cert'))
      expect((await api.read('config/certificate/c')).body.data.type).toBe('pkcs7')
    })
  })
})
