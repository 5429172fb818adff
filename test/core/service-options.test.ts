import fc from 'fast-check'
import { afterEach, describe, expect, it } from 'vitest'
import { createDoppel, type Doppel, type DoppelOptions } from '../../src/index.ts'

// Each service takes its options under the name its descriptor declares (`cloudAuth`, `fakeCloud`), checked
// by the service at `createDoppel`; the top-level options of the last release still work beneath them.

let doppel: Doppel | undefined
afterEach(() => doppel?.reset())

/** How many metadata listeners the instance opens before it names its cap. */
async function listenersOpened(options: DoppelOptions): Promise<number> {
  doppel = createDoppel({ seed: 1, ...options })
  for (let opened = 0; opened < 5; opened++) {
    const id = doppel.cloud.createInstance({}).instance_id
    const res = await doppel.fetch(`http://doppel.test/_doppel/cloud/instances/${id}/imds`, { method: 'POST' })
    if (res.status === 409) return opened
    expect(res.status).toBe(200)
  }
  return 5
}

describe("a service's options", () => {
  it('reach the fake cloud under fakeCloud, and the deprecated top-level imdsListenerLimit still does', async () => {
    expect(await listenersOpened({ fakeCloud: { imdsListenerLimit: 1 } })).toBe(1)
    expect(await listenersOpened({ imdsListenerLimit: 2 })).toBe(2)
    // The service's own object wins over the deprecated spelling.
    expect(await listenersOpened({ imdsListenerLimit: 1, fakeCloud: { imdsListenerLimit: 3 } })).toBe(3)
  })

  it('are checked by the service when the instance is created, naming the option', () => {
    const refusals: [unknown, RegExp][] = [
      [{ cloudAuth: { allowSha1: 'yes' } }, /^cloudAuth\.allowSha1 must be true or false/],
      [{ allowSha1: 1 }, /^cloudAuth\.allowSha1 must be true or false/],
      [{ cloudAuth: { allowSHA1: true } }, /^cloudAuth takes no option "allowSHA1" \(it takes "allowSha1", "env"\)$/],
      [{ cloudAuth: { env: 'CLOUD_ACCESS_KEY=x' } }, /^cloudAuth\.env must be an object/],
      [{ cloudAuth: true }, /^cloudAuth must be an object of options/],
      [{ fakeCloud: { imdsListenerLimit: -1 } }, /^fakeCloud\.imdsListenerLimit must be a whole number ≥ 0, not -1$/],
      [{ imdsListenerLimit: 1.5 }, /^fakeCloud\.imdsListenerLimit must be a whole number ≥ 0, not 1\.5$/],
    ]
    for (const [options, message] of refusals) expect(() => createDoppel(options as DoppelOptions), JSON.stringify(options)).toThrow(message)
  })

  it('refuse any allowSha1 but true, false or none, and nothing else', () => {
    fc.assert(
      fc.property(fc.anything(), (value) => {
        const create = () => createDoppel({ cloudAuth: { allowSha1: value as boolean } })
        if (value === undefined || typeof value === 'boolean') expect(create).not.toThrow()
        else expect(create).toThrow(TypeError)
      }),
    )
  })
})
