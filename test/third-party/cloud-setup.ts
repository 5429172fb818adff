import { once } from 'node:events'
import { readFileSync } from 'node:fs'
import { request as httpRequest } from 'node:http'
import { request as httpsRequest } from 'node:https'
import { expect } from 'vitest'
import type { ServeProcess } from '../server/serve-process.ts'

/** What the real-client tests set up in the fake cloud: an instance with a role, its IMDS, another role, a user. */
export interface CloudSetup {
  instance: { instance_id: string; account_id: string; ami_id: string; iam_role_name: string; iam_role_arn: string }
  imds: string
  otherRoleArn: string
  userName: string
  /** The CA a TLS server printed (VAULT_CACERT), if it is one. */
  ca?: string
}

/**
 * Sets up an instance running with role `prefix-app` (its instance profile has the same name), its IMDS listener,
 * a role `prefix-other` to assume and a user `prefix-alice`, through doppel's `/_doppel/cloud/` routes.
 */
export async function setUpCloud(serve: ServeProcess, prefix: string): Promise<CloudSetup> {
  const ca = /^export VAULT_CACERT=(.*)$/m.exec(serve.stderr())?.[1]
  const post = async (path: string, body: unknown) => {
    const response = await postJson(`${serve.url}/_doppel/cloud/${path}`, body, ca)
    expect(response.status).toBeLessThan(300)
    return response.body as Record<string, string>
  }
  const instance = (await post('instances', { region: 'eu-central-1', iam_role_name: `${prefix}-app` })) as unknown as CloudSetup['instance']
  const { endpoint } = await post(`instances/${instance.instance_id}/imds`, {})
  const other = await post('principals', { type: 'role', name: `${prefix}-other` })
  await post('principals', { type: 'user', name: `${prefix}-alice` })
  return { instance, imds: endpoint!, otherRoleArn: other.arn!, userName: `${prefix}-alice`, ...(ca !== undefined && { ca }) }
}

/** Stops a server with SIGTERM and waits for it, so that a TLS server removes its temporary CA folder. */
export async function stopGently(serve: ServeProcess | undefined): Promise<void> {
  if (serve === undefined || serve.child.exitCode !== null || serve.child.signalCode !== null) return
  serve.child.kill('SIGTERM')
  await once(serve.child, 'exit')
}

/** An environment with no AWS configuration but what a test gives (no files, no profile). */
export function bareEnvironment(): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '',
    HOME: '/nonexistent',
    AWS_CONFIG_FILE: '/nonexistent/config',
    AWS_SHARED_CREDENTIALS_FILE: '/nonexistent/credentials',
  }
}

/** POSTs JSON through node:https or node:http, trusting `ca` when given (Node's fetch takes no CA file). */
function postJson(url: string, body: unknown, ca?: string): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const text = JSON.stringify(body)
    const options = { method: 'POST', headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) }, ...(ca && { ca: readFileSync(ca) }) }
    const req = (url.startsWith('https:') ? httpsRequest : httpRequest)(url, options, (res) => {
      let answer = ''
      res.setEncoding('utf8').on('data', (chunk: string) => (answer += chunk))
      res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(answer) }))
    })
    req.on('error', reject).end(text)
  })
}
