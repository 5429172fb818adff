// A streamed answer (a large journal or snapshot, written piece by piece) to a client that reads slowly: the
// server waits for each drain without piling up listeners on the response (a MaxListenersExceededWarning
// showed it once did).
import { request } from 'node:http'
import { afterEach, expect, it } from 'vitest'
import { createDoppel, createDoppelServer, listen, type RunningServer } from '../../src/index.ts'

let running: RunningServer | undefined
afterEach(async () => {
  await running?.close()
  running = undefined
})

it('a large journal read by a slow client adds no listeners up on the response', async () => {
  const doppel = createDoppel({ seed: 1, journalLimit: 400 })
  const body = JSON.stringify({ auth_type: 'ec2', bound_ami_id: 'ami-1', pad: 'x'.repeat(15_000) })
  for (let i = 0; i < 400; i++) {
    await doppel.fetch(`http://doppel.test/v1/auth/cloud/role/r${i}`, { method: 'POST', headers: { 'X-Service-Token': 'root' }, body })
  }
  const warnings: string[] = []
  const onWarning = (warning: Error) => warnings.push(`${warning.name}: ${warning.message}`)
  process.on('warning', onWarning)
  running = await listen(createDoppelServer(doppel), 0, '127.0.0.1')
  const received = await new Promise<number>((resolve, reject) => {
    const call = request(`${running!.url}/_doppel/journal`, { headers: { 'X-Service-Token': 'root' } }, (res) => {
      let bytes = 0
      res.on('data', (chunk: Buffer) => {
        bytes += chunk.length
        // Read slowly, so that the server meets back-pressure again and again.
        res.pause()
        setTimeout(() => res.resume(), 1)
      })
      res.on('end', () => resolve(bytes))
      res.on('error', reject)
    })
    call.on('error', reject)
    call.end()
  })
  process.off('warning', onWarning)
  expect(received).toBeGreaterThan(4 * 1024 * 1024)
  expect(warnings.filter((warning) => warning.startsWith('MaxListenersExceededWarning'))).toEqual([])
}, 60_000)
