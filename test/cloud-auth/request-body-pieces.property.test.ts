import fc from 'fast-check'
import { expect, it } from 'vitest'
import { createDoppel } from '../../src/features/doppel/index.ts'

// A body read in pieces (a streamed request) is taken as the same body read whole: the JSON object the
// bounds check saw close is the one parsed, whatever follows it and wherever the pieces are cut; a body
// that is not an object is refused with the service's 400 and writes nothing.
const ROLE = 'http://127.0.0.1:8200/v1/auth/cloud/role/pieces'

/** The body as a stream of two pieces cut at `cut`. */
function streamed(body: string, cut: number): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(body)
  const at = cut % (bytes.length + 1)
  return new ReadableStream({
    start(controller) {
      controller.enqueue(bytes.subarray(0, at))
      controller.enqueue(bytes.subarray(at))
      controller.close()
    },
  })
}

async function write(body: string, cut: number | undefined) {
  const doppel = createDoppel({ seed: 1 })
  const init = { method: 'POST', headers: { 'X-Service-Token': 'root', 'Content-Type': 'application/json' } }
  const response = await doppel.fetch(
    ROLE,
    cut === undefined ? { ...init, body } : ({ ...init, body: streamed(body, cut), duplex: 'half' } as RequestInit),
  )
  const role = await doppel.fetch(ROLE, { headers: { 'X-Service-Token': 'root' } })
  return { status: response.status, text: await response.text(), role: role.status === 200 ? ((await role.json()) as { data: Record<string, unknown> }).data : undefined }
}

it('an object followed by anything is read the same in two pieces as whole', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.stringMatching(/^ami-[0-9a-f"\\]{1,8}$/),
      fc.constantFrom('', ' ', '\n', ' trailing', '}', '{"auth_type":"iam"}', '\u00e9x'),
      fc.nat(),
      async (ami, tail, cut) => {
        const body = `  ${JSON.stringify({ auth_type: 'ec2', bound_ami_id: ami })}${tail}`
        const whole = await write(body, undefined)
        const pieces = await write(body, cut)
        expect(pieces).toEqual(whole)
        expect(whole.status).toBe(204)
        expect(whole.role?.bound_ami_id).toEqual([ami])
      },
    ),
    { numRuns: 60 },
  )
})

it('a body that is not a whole object is refused in pieces as whole, and writes no role', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom('{', '{"auth_type":"ec2"', '[1]', '"x"', 'nul', '{"a":}', '{"a":"\\"}', '  {"a":[1,{"b":2}]'),
      fc.nat(),
      async (body, cut) => {
        for (const answer of [await write(body, undefined), await write(body, cut)]) {
          expect(answer.status, body).toBe(400)
          expect(JSON.parse(answer.text)).toEqual({ errors: ['error parsing JSON'] })
          expect(answer.role).toBeUndefined()
        }
      },
    ),
    { numRuns: 60 },
  )
})
