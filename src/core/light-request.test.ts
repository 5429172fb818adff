import { describe, expect, it } from 'vitest'
import { readBodyBytes } from './http.ts'
import { LightRequest } from './light-request.ts'
import { LightResponse, realResponse, responseParts } from './light-response.ts'

const RAW = ['Host', 'doppel.test', 'X-Token', 'a', 'x-token', 'b', 'Content-Type', 'application/json']

describe('LightRequest', () => {
  it('is a Request whose headers read as Fetch joins them, without building one', () => {
    const request = new LightRequest('POST', 'http://doppel.test/p?q=1', RAW, Buffer.from('{"a":1}'))
    expect(request).toBeInstanceOf(Request)
    expect(request.headers).toBeInstanceOf(Headers)
    expect(request.headers.get('X-TOKEN')).toBe('a, b')
    expect(request.headers.get('missing')).toBeNull()
    expect(request.headers.has('content-type')).toBe(true)
    expect([...request.headers]).toEqual([
      ['content-type', 'application/json'],
      ['host', 'doppel.test'],
      ['x-token', 'a, b'],
    ])
  })

  it('hands its body over once, as a Fetch body', async () => {
    const request = new LightRequest('POST', 'http://doppel.test/', RAW, Buffer.from('{"a":1}'))
    expect(await request.json()).toEqual({ a: 1 })
    expect(request.bodyUsed).toBe(true)
    await expect(request.text()).rejects.toThrow(TypeError)
    await expect(readBodyBytes(request)).rejects.toThrow(TypeError)
  })

  it('refuses a body over the reader’s limit', async () => {
    const request = new LightRequest('POST', 'http://doppel.test/', ['Host', 'doppel.test'], Buffer.alloc(10))
    await expect(readBodyBytes(request, 5)).rejects.toThrow('body exceeds 5 bytes')
  })

  it('clones into another light request with its own body, both readable once', async () => {
    const request = new LightRequest('POST', 'http://doppel.test/p', RAW, Buffer.from('abc'))
    const copy = request.clone()
    expect(copy).toBeInstanceOf(LightRequest)
    expect(copy.method).toBe('POST')
    expect(copy.url).toBe('http://doppel.test/p')
    expect(copy.headers.get('x-token')).toBe('a, b')
    const bytes = await copy.bytes()
    bytes[0] = 0x7a
    expect(copy.bodyUsed).toBe(true)
    expect(request.bodyUsed).toBe(false)
    expect(await request.text()).toBe('abc')
  })

  it('refuses to clone once its body was read, and reads an absent body as empty each time, as a Fetch Request', async () => {
    for (const make of [
      (body?: Uint8Array) => new LightRequest('POST', 'http://doppel.test/p', RAW, body),
      (body?: Uint8Array) => new Request('http://doppel.test/p', { method: 'POST', headers: { 'X-Token': 'a' }, ...(body && { body: body as Uint8Array<ArrayBuffer> }) }),
    ]) {
      const read = make(Buffer.from('abc'))
      expect(await read.text()).toBe('abc')
      expect(() => read.clone()).toThrow(TypeError)
      const empty = make()
      expect(await empty.text()).toBe('')
      expect(await empty.text()).toBe('')
      expect(empty.bodyUsed).toBe(false)
      expect(await empty.clone().text()).toBe('')
    }
  })

  it('clones through the real Request once its headers were changed', async () => {
    const request = new LightRequest('PUT', 'http://doppel.test/x', RAW, Buffer.from('abc'))
    request.headers.set('x-extra', '1')
    const copy = request.clone()
    expect(copy).not.toBeInstanceOf(LightRequest)
    expect(copy.headers.get('x-extra')).toBe('1')
    expect(await copy.text()).toBe('abc')
  })

  it('builds the real Request for anything else', async () => {
    const request = new LightRequest('PUT', 'http://doppel.test/x', RAW, Buffer.from('abc'))
    expect(request.signal).toBeInstanceOf(AbortSignal)
    expect(await request.clone().text()).toBe('abc')
  })
})

describe('LightResponse', () => {
  it('records its parts until its headers are touched, then gives the real Response', async () => {
    const response = new LightResponse('{"ok":true}\n', { status: 201, headers: { 'Content-Type': 'application/json' } })
    expect(response).toBeInstanceOf(Response)
    expect(response.ok).toBe(true)
    expect(responseParts(response)).toEqual({ status: 201, headers: { 'Content-Type': 'application/json' }, body: '{"ok":true}\n' })
    response.headers.set('X-Extra', '1')
    expect(responseParts(response)).toBeUndefined()
    const real = realResponse(response)
    expect(Object.getPrototypeOf(real)).toBe(Response.prototype)
    expect(real.headers.get('x-extra')).toBe('1')
    expect(await real.json()).toEqual({ ok: true })
  })

  it('reads a string body once through text()', async () => {
    const response = new LightResponse('abc', { headers: {} })
    expect(await response.text()).toBe('abc')
    expect(response.bodyUsed).toBe(true)
    await expect(response.text()).rejects.toThrow(TypeError)
  })
})
