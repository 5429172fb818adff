import type { Doppel } from '../../src/features/doppel/index.ts'
import type { Family, Probe } from './endpoints.ts'

export interface Answer {
  status: number
  contentType: string
  text: string
}

/** Sends a probe in process and reads the whole answer, failing when none comes within `ms`. */
export async function send(doppel: Doppel, probe: Probe, ms = 10_000): Promise<Answer> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms)
  })
  const exchange = (async () => {
    const init = { method: probe.method, headers: probe.headers, body: probe.body, duplex: 'half' } as RequestInit
    const response = await doppel.fetch(new Request(probe.url, init))
    return { status: response.status, contentType: response.headers.get('content-type') ?? '', text: await response.text() }
  })()
  try {
    return await Promise.race([exchange, timeout])
  } finally {
    clearTimeout(timer)
  }
}

const isStringList = (value: unknown) => Array.isArray(value) && value.every((item) => typeof item === 'string')

/** Why an error answer does not carry the family's own error body, or undefined when it does. */
export function errorBodyProblem(family: Family, answer: Answer): string | undefined {
  const parsed = (): any => {
    try {
      return JSON.parse(answer.text)
    } catch {
      return undefined
    }
  }
  switch (family) {
    case 'auth':
    case 'control':
    case 'registry-v1': {
      const body = parsed()
      if (!answer.contentType.startsWith('application/json')) return `Content-Type ${answer.contentType}`
      return body && isStringList(body.errors) && Object.keys(body).length === 1 ? undefined : 'not {"errors":["…"]}'
    }
    case 'registry': {
      const body = parsed()
      if (answer.contentType !== 'application/vnd.api+json') return `Content-Type ${answer.contentType}`
      const errors = body?.errors
      if (!Array.isArray(errors) || errors.length === 0) return 'no JSON:API errors array'
      const wellFormed = errors.every((e: any) => e.status === String(answer.status) && typeof e.title === 'string' && e.title !== '')
      return wellFormed ? undefined : 'JSON:API error objects without a string status equal to the HTTP status and a title'
    }
    case 'aws':
      return /^<ErrorResponse xmlns="https:\/\/(sts|iam)\.amazonaws\.com\/doc\/[\d-]+\/">[\s\S]*<Error>[\s\S]*<Code>[A-Za-z.]+<\/Code>[\s\S]*<RequestId>/.test(answer.text)
        ? undefined
        : 'not an AWS query-protocol ErrorResponse'
    case 'ec2':
      return /<Response><Errors><Error><Code>[A-Za-z.]+<\/Code><Message>[^<]*<\/Message><\/Error><\/Errors><RequestID>/.test(answer.text)
        ? undefined
        : 'not an EC2 Response/Errors document'
    case 'imds':
      return /<title>\d{3} - [A-Za-z ]+<\/title>/.test(answer.text) ? undefined : 'not the IMDS error page'
  }
}
