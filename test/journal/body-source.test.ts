import { afterEach, describe, expect, it, vi } from 'vitest'
import { createDoppel } from '../../src/features/doppel/index.ts'
import { BASE } from '../cloud-auth/login-setup.ts'

// The journal keeps a request's body without a second copy of its stream: it takes what the service read,
// or reads the start of a body nobody read once the answer is made.

const ROOT = { 'X-Service-Token': 'root', 'Content-Type': 'application/json' }

/** A body that arrives in pieces, as a real upload does. */
function streamed(text: string, pieceSize: number): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text)
  let at = 0
  return new ReadableStream({
    pull(controller) {
      if (at >= bytes.byteLength) return controller.close()
      controller.enqueue(bytes.slice(at, at + pieceSize))
      at += pieceSize
    },
  })
}

describe('the journal takes a request body', () => {
  afterEach(() => vi.restoreAllMocks())

  it('from what the service read: no clone of the request (a tee of its stream) on the way', async () => {
    const doppel = createDoppel()
    const clone = vi.spyOn(Request.prototype, 'clone')
    const body = JSON.stringify({ auth_type: 'ec2', bound_ami_id: 'ami-1' })
    const response = await doppel.fetch(`${BASE}/v1/auth/cloud/role/web`, { method: 'POST', headers: ROOT, body })
    expect(response.status).toBe(204)
    expect(clone).not.toHaveBeenCalled()
    expect(doppel.journal.entries()[0]!.request).toMatchObject({ body, truncated: false })
  })

  it('from a streamed body read in pieces, cut at the body limit', async () => {
    const doppel = createDoppel({ journalBodyLimit: 1024 })
    const body = JSON.stringify({ auth_type: 'ec2', bound_ami_id: 'ami-1', token_policies: 'p'.repeat(5000) })
    const request = new Request(`${BASE}/v1/auth/cloud/role/web`, { method: 'POST', headers: ROOT, body: streamed(body, 300), duplex: 'half' } as RequestInit)
    expect((await doppel.fetch(request)).status).toBe(204)
    expect(doppel.journal.entries()[0]!.request).toMatchObject({ body: body.slice(0, 1024), truncated: true })
  })

  it('from a body the service refused part way (past its size limit), as far as it was read', async () => {
    const doppel = createDoppel({ journalBodyLimit: 512 })
    const body = JSON.stringify({ pad: 'x'.repeat(40 * 1024 * 1024) })
    const request = new Request(`${BASE}/v1/auth/cloud/role/web`, { method: 'POST', headers: ROOT, body: streamed(body, 1024 * 1024), duplex: 'half' } as RequestInit)
    const response = await doppel.fetch(request)
    expect(response.status).toBe(413)
    expect(doppel.journal.entries()[0]!.request).toMatchObject({ body: body.slice(0, 512), truncated: true })
  })

  it('from a body no service read: its start, read after the answer', async () => {
    const doppel = createDoppel()
    const body = JSON.stringify({ anything: 'here' })
    const request = new Request(`${BASE}/nowhere`, { method: 'POST', headers: ROOT, body: streamed(body, 4), duplex: 'half' } as RequestInit)
    expect((await doppel.fetch(request)).status).toBe(404)
    expect(doppel.journal.entries()[0]!.request).toMatchObject({ path: '/nowhere', body, truncated: false })
  })
})
