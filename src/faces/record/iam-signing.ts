import { regionalStsRegion } from '../../services/fake-cloud/index.ts'

/** What an iam login's signed `GetCallerIdentity` says about how it was made (key, server id, region, method). */
export interface IamSigning {
  accessKeyId: string
  serverId?: string
  /** The signed header that carried it, as the client named it. */
  serverIdHeader?: string
  region?: string
  method: 'POST' | 'GET'
}

/** Reads the signer of an iam login body (base64 headers and URL, as clients send them); undefined otherwise. */
export function iamSigning(body: Record<string, unknown>): IamSigning | undefined {
  if (typeof body.iam_request_headers !== 'string') return undefined
  let headers: Record<string, unknown>
  let url: string
  try {
    headers = JSON.parse(Buffer.from(body.iam_request_headers, 'base64').toString('utf8')) as Record<string, unknown>
    url = Buffer.from(String(body.iam_request_url ?? ''), 'base64').toString('utf8')
  } catch {
    return undefined
  }
  const entry = (pattern: RegExp) => Object.entries(headers).find(([name]) => pattern.test(name))
  const find = (pattern: RegExp): string | undefined => {
    const value = entry(pattern)?.[1]
    return Array.isArray(value) ? String(value[0]) : typeof value === 'string' ? value : undefined
  }
  const accessKeyId = /Credential=([^/,\s]+)\//.exec(find(/^authorization$/i) ?? '')?.[1] ?? /X-Amz-Credential=([^%&/]+)/.exec(url)?.[1]
  if (accessKeyId === undefined) return undefined
  const serverId = find(/-iam-server-id$/i)
  const region = URL.canParse(url) ? regionalStsRegion(new URL(url).hostname) : undefined
  return {
    accessKeyId,
    ...(serverId !== undefined && { serverId, serverIdHeader: entry(/-iam-server-id$/i)![0] }),
    ...(region !== undefined && { region }),
    method: body.iam_http_request_method === 'GET' ? 'GET' : 'POST',
  }
}

export const IAM_FIELDS = ['iam_http_request_method', 'iam_request_url', 'iam_request_body', 'iam_request_headers'] as const
