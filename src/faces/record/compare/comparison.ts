/**
 * `doppel compare`'s core: each exchange the proxy forwarded is sent, translated, to an in-process
 * emulator; the two answers are compared and the emulator learns the upstream's generated values.
 */
import { createDoppel } from '../../../features/doppel/index.ts'
import { signedCallerIdentity } from '../../scenario/index.ts'
import { jsonBody, type Exchange } from '../exchange.ts'
import { HOP_BY_HOP } from '../forwarding-proxy.ts'
import { IAM_FIELDS, iamSigning } from '../iam-signing.ts'
import { differences, type Answer, type Difference } from './differences.ts'
import { formatReport, type ComparedExchange, type Report } from './report.ts'
import { Translation } from './translation.ts'
import { CONTROL_PREFIX } from '../../../services/control/urls.ts'

export interface ComparisonOptions {
  profile: 'service' | 'vault'
  rootTokens: string[]
  allowSha1: boolean
  /** The emulator's random seed (repeatable ids and tokens). */
  seed?: number | string
  /** One line per differing exchange, as it happens. */
  onDifference: (line: string) => void
}

export interface Comparison {
  add(exchange: Exchange): Promise<void>
  report(): Report
}

const EMULATOR_ORIGIN = 'http://doppel.compare'

/** The emulator is reached at its own origin, and answers uncompressed. */
const NOT_SENT = new Set([...HOP_BY_HOP, 'host', 'accept-encoding'])

export function startComparison(options: ComparisonOptions): Comparison {
  const doppel = createDoppel({ profile: options.profile, rootTokens: options.rootTokens, cloudAuth: { allowSha1: options.allowSha1 }, ...(options.seed !== undefined && { seed: options.seed }) })
  const translation = new Translation()
  const compared: ComparedExchange[] = []
  return {
    async add(exchange) {
      // The upstream gave no answer to compare with (the proxy answered 502).
      if (exchange.refused !== undefined) return
      const request = emulatorRequest(exchange, translation, doppel.clock.now())
      let response: Response
      try {
        response = await doppel.fetch(request)
      } catch (error) {
        response = Response.json({ errors: [`doppel dropped the request: ${(error as Error).message}`] }, { status: 599 })
      }
      const doppelBytes = Buffer.from(await response.arrayBuffer())
      const upstream = answerOf(exchange.status, exchange.responseBody)
      const mine = answerOf(response.status, doppelBytes)
      // Control calls (a doppel serve upstream) set the scene; only the services' answers are compared.
      const found: Difference[] = exchange.target.startsWith(CONTROL_PREFIX) ? [] : differences(upstream, mine, (a, b) => translation.text(a) === b)
      translation.learn(upstream.body, mine.body)
      const explanation = found.length > 0 ? doppel.explain(response) : undefined
      const entry: ComparedExchange = { index: compared.length + 1, method: exchange.method, path: exchange.target, differences: found, ...(explanation && { explanation }) }
      compared.push(entry)
      if (found.length > 0) options.onDifference(formatReport.line(entry))
    },
    report: () => formatReport(compared),
  }
}

function answerOf(status: number, body: Buffer): Answer {
  const json = jsonBody(body)
  return { status, body: json !== undefined ? json : body.length === 0 ? undefined : body.toString('utf8') }
}

/** The same request for the emulator: upstream values translated, an iam login signed with its own keys. */
function emulatorRequest(exchange: Exchange, translation: Translation, now: Date): Request {
  const headers = new Headers()
  for (const [name, value] of exchange.requestHeaders) {
    if (NOT_SENT.has(name.toLowerCase())) continue
    headers.append(name, translation.text(value))
  }
  let body: Uint8Array<ArrayBuffer> | undefined
  const json = jsonBody(exchange.requestBody)
  if (json !== undefined) {
    let translated = translation.json(json) as Record<string, unknown>
    const signing = translated && typeof translated === 'object' ? iamSigning(translated) : undefined
    const credentials = signing && translation.credentials.get(signing.accessKeyId)
    if (signing && credentials) {
      const signed = signedCallerIdentity({
        credentials,
        now,
        serverIdHeader: signing.serverIdHeader ?? 'X-Service-Cloud-IAM-Server-ID',
        ...(signing.serverId !== undefined && { serverId: signing.serverId }),
        ...(signing.region !== undefined && { region: signing.region }),
        method: signing.method,
      })
      translated = { ...translated }
      for (const field of IAM_FIELDS) translated[field] = signed[field]
    }
    body = new TextEncoder().encode(JSON.stringify(translated))
  } else if (exchange.requestBody.length > 0) {
    body = new Uint8Array(exchange.requestBody)
  }
  const target = translation.text(exchange.target)
  return new Request(EMULATOR_ORIGIN + target, {
    method: exchange.method,
    headers,
    ...(body && exchange.method !== 'GET' && exchange.method !== 'HEAD' && { body }),
  })
}
