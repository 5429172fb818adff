// Sends a list of calls one by one to a server and writes each answer down comparably: the tokens,
// accessors and entity ids it made by the labels they were kept under, what a server draws or times taken out.
// `compareCallByCall` sends them to the real server and to `doppel serve --profile vault` and requires the same.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startServe, stopServe, type ServeProcess } from '../server/serve-process.ts'
import { realServer } from './real-server-env.ts'

/** A call: the method and path (under the driver's base), the body, the label of the token to send (the root token when absent), and the label to keep the created token under. */
export type Step = [method: string, path: string, body?: unknown, as?: string, keep?: string]

interface KeptAuth {
  client_token: string
  accessor: string
  entity_id: string
}

export interface DriveOptions {
  /** The paths' prefix under `/v1/`. */
  base: string
  /** Texts the real server words its own way, and doppel's (Vault's) words for them. */
  words?: readonly (readonly [string, string])[]
  /** The answer's top-level keys come in no order (Vault copies a `sys/` answer's data there from a Go map): compare them sorted. */
  unorderedTop?: boolean
}

/**
 * Each step's method, path and body, then its status and answer. `<label>`, `<label.acc>` and
 * `<label.entity>` in a path or body stand for the token kept under the label, its accessor and its entity id.
 */
async function driveSteps(addr: string, root: string, steps: readonly Step[], { base, words = [], unorderedTop = false }: DriveOptions): Promise<string[]> {
  const kept = new Map<string, KeptAuth>()
  const fill = (text: string) =>
    text.replace(/<([a-z0-9]+)(\.acc|\.entity)?>/g, (whole, label: string, part?: string) => {
      const auth = kept.get(label)
      if (auth === undefined) return whole
      return part === '.acc' ? auth.accessor : part === '.entity' ? auth.entity_id : auth.client_token
    })
  const outputs: string[] = []
  for (const [method, path, body, as, keep] of steps) {
    const token = as === undefined ? root : (kept.get(as)?.client_token ?? 'none')
    const init: RequestInit = { method, headers: { 'X-Vault-Token': token, 'Content-Type': 'application/json' } }
    if (body !== undefined) init.body = fill(JSON.stringify(body))
    const response = await fetch(`${addr}/v1/${base}${fill(path)}`, init)
    let text = await response.text()
    if (keep !== undefined && response.status === 200) kept.set(keep, (JSON.parse(text) as { auth: KeptAuth }).auth)
    for (const [label, auth] of kept) {
      text = text.replaceAll(`"${auth.client_token}"`, `"<${label}>"`)
      if (auth.accessor !== '') text = text.replaceAll(`"${auth.accessor}"`, `"<${label}.acc>"`)
      if (auth.entity_id !== '') text = text.replaceAll(auth.entity_id, `<${label}.entity>`)
    }
    for (const [theirs, ours] of words) text = text.replace(theirs, ours)
    text = text
      .replace(/"(client_token|accessor|request_id|entity_id)":"(?!<)[^"]+"/g, '"$1":"<drawn>"')
      .replace(/"(creation_time|last_renewal_time)":\d+/g, '"$1":"<time>"')
      .replace(/\d{4}-\d\d-\d\dT[\d:.]+Z/g, '<time>')
      // the seconds left, counted down while the steps run (a lookup's creation_ttl and expire_time say the rest)
      .replace(/"ttl":\d+/g, '"ttl":"<left>"')
      // doppel names the mount type on its envelope's last line, as the real server's does not for the token store or sys/
      .replace(/,"mount_type":"(token|system)"/, '')
    text = withoutTickedSecond(text)
    if (unorderedTop && text.startsWith('{')) text = JSON.stringify(Object.fromEntries(Object.entries(JSON.parse(text) as object).sort(([a], [b]) => (a < b ? -1 : 1))))
    outputs.push(`${method} ${path} ${body === undefined ? '' : JSON.stringify(body)}${as ? ` as ${as}` : ''}\n${response.status} ${text.trim()}`)
  }
  return outputs
}

/** The system maximum TTL (768h) less the second a token can lose on the real server, and its JSON-quoted words. */
const TICKED = { seconds: '2764799', words: '\\"767h59m59s\\"' }

/**
 * The real server caps a token's TTL at the system maximum counted from the token's creation time, that time
 * and the clock each truncated to the second (the SDK's `CalculateTTL`): when a second ticks over between the
 * two within one request, the token gets 767h59m59s, and a warning that the TTL was capped. doppel's clock
 * does not move within a request. Both read as the answer without the tick.
 */
function withoutTickedSecond(text: string): string {
  if (!text.includes(TICKED.seconds) && !text.includes(TICKED.words)) return text
  const capped = 'TTL of \\"768h\\" exceeded the effective max_ttl of \\"768h\\"; TTL value is capped accordingly'
  return text
    .replaceAll(TICKED.words, '\\"768h\\"')
    .replace(new RegExp(`(?<=[:,])${TICKED.seconds}(?=[,}])`, 'g'), '2764800')
    .replace(`"warnings":["${capped}"]`, '"warnings":null')
    .replace(`"${capped}",`, '')
    .replace(`,"${capped}"`, '')
}

/**
 * A test, skipped without a real server, that sends `steps` to it and to a `doppel serve --profile vault` of
 * its own and requires equal answers; `check` first holds the real server's answers to what the steps mean to
 * show, so that a comparison of two empty or failing runs cannot pass.
 */
export function compareCallByCall(title: string, steps: readonly Step[], options: DriveOptions, check: (real: string[]) => void): void {
  const server = realServer()
  describe.skipIf(!server)(title, () => {
    let serve: ServeProcess
    beforeAll(async () => {
      serve = await startServe(['--profile', 'vault'])
    })
    afterAll(() => stopServe(serve))

    it('answers every step the same', { timeout: 120_000 }, async () => {
      const real = await driveSteps(server!.addr, server!.token, steps, options)
      check(real)
      expect(await driveSteps(serve.url, 'root', steps, options)).toEqual(real)
    })
  })
}
