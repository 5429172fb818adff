import { createDoppel, type Doppel } from '../../features/doppel/index.ts'
import { createDoppelServer, listen, type RunningServer } from '../server/index.ts'
import { errorKind } from '../../core/doppel-error.ts'
import { mountPath, sysAuthPath } from '../../services/cloud-auth/urls.ts'

/** A management request the bridge sends to the real server. */
export interface PlannedRequest {
  method: 'POST' | 'DELETE'
  path: string
  body?: Record<string, unknown>
}

export interface SetupPlanInput {
  mount: string
  /** Where the real server reaches the fake cloud (STS, EC2 and IAM at the root). */
  cloudUrl: string
  credentials: { accessKeyId: string; secretAccessKey: string }
  certificates: { pkcs7: string[]; identity: string[] }
}

/**
 * What a real Vault needs to trust the fake cloud: a fresh mount of the method, `config/client` pointing
 * every provider endpoint at the fake cloud with the fake cloud's service identity, and the fake signing
 * certificates registered with the type each flow uses (docs/reference/cloud-auth.md §3.1, docs/reference/cloud-auth.md §3.4, docs/reference/fake-cloud.md §3.4).
 */
export function vaultSetupPlan(input: SetupPlanInput): PlannedRequest[] {
  const certificate = (name: string, pem: string, type: 'pkcs7' | 'identity'): PlannedRequest => ({
    method: 'POST',
    path: mountPath(input.mount, `config/certificate/${name}`),
    body: { aws_public_cert: Buffer.from(pem).toString('base64'), type },
  })
  return [
    { method: 'POST', path: sysAuthPath(input.mount), body: { type: 'aws', description: 'doppel conformance run' } },
    {
      method: 'POST',
      path: mountPath(input.mount, 'config/client'),
      body: {
        access_key: input.credentials.accessKeyId,
        secret_key: input.credentials.secretAccessKey,
        endpoint: input.cloudUrl,
        iam_endpoint: input.cloudUrl,
        sts_endpoint: input.cloudUrl,
        sts_region: 'us-east-1',
      },
    },
    ...input.certificates.pkcs7.map((pem, i) => certificate(`doppel-pkcs7-${i}`, pem, 'pkcs7')),
    ...input.certificates.identity.map((pem, i) => certificate(`doppel-identity-${i}`, pem, 'identity')),
  ]
}

export function vaultTeardownPlan(mount: string): PlannedRequest[] {
  return [{ method: 'DELETE', path: sysAuthPath(mount) }]
}

export interface VaultBridgeOptions {
  vaultUrl: string
  token: string
  /** `host:port` the fake cloud listens on (port 0 picks one). */
  listen: string
  /** The URL the real server uses to reach the fake cloud, when it differs from the listen address. */
  advertiseUrl?: string
  mount?: string
  fetch?: typeof globalThis.fetch
}

export interface VaultBridge {
  doppel: Doppel
  mount: string
  /** The fake cloud as the real server reaches it. */
  cloudUrl: string
  /** A doppel control API over the same emulator, for the scenarios' `cloud.*` steps. */
  controlUrl: string
  /** Enables the method at another mount and configures it as the bridge's own (one per scenario). */
  prepareMount(mount: string): Promise<void>
  close(): Promise<void>
}

class VaultBridgeError extends errorKind('VaultBridgeError', 'DOPPEL_VAULT_BRIDGE') {}

/**
 * Serves the fake cloud over HTTP for a real server, configures a fresh mount of the method to use it,
 * and removes the mount again on `close()`.
 */
export async function startVaultBridge(options: VaultBridgeOptions): Promise<VaultBridge> {
  const fetchImpl = options.fetch ?? globalThis.fetch
  const match = /^(.*):(\d+)$/.exec(options.listen)
  if (!match) throw new VaultBridgeError(`Failed to start the fake cloud: --fake-cloud-listen takes host:port, not "${options.listen}"`)
  const doppel = createDoppel({ profile: 'vault' })
  const servers: RunningServer[] = []
  const closeServers = () => Promise.all(servers.map((s) => s.close())).then(() => undefined)
  try {
    // The real server calls the fake cloud by the advertised name: admit it on a loopback bind too.
    const allowedHosts = options.advertiseUrl ? [new URL(options.advertiseUrl).hostname] : []
    servers.push(await listen(createDoppelServer(doppel, { surface: 'cloud', allowedHosts }), Number(match[2]), match[1]!.replace(/^\[|\]$/g, '')))
    servers.push(await listen(createDoppelServer(doppel), 0, '127.0.0.1'))
  } catch (error) {
    await closeServers()
    throw new VaultBridgeError(`Failed to start the fake cloud on ${options.listen}: ${(error as Error).message}`)
  }
  const [cloud, control] = servers as [RunningServer, RunningServer]
  const cloudUrl = options.advertiseUrl ?? cloud.url.replace('://0.0.0.0:', '://127.0.0.1:').replace('://[::]:', '://127.0.0.1:')
  const mount = options.mount ?? `doppel-${doppel.random.hex(8)}`
  const send = async (request: PlannedRequest) => {
    const response = await fetchImpl(`${options.vaultUrl.replace(/\/+$/, '')}${request.path}`, {
      method: request.method,
      headers: { 'X-Vault-Token': options.token, 'Content-Type': 'application/json' },
      ...(request.body && { body: JSON.stringify(request.body) }),
    })
    if (!response.ok) throw new VaultBridgeError(`Failed to configure the target: ${request.method} ${request.path} answered ${response.status} ${await response.text()}`)
  }
  const certificates = doppel.cloud.builtInCertificates()
  // Each mount acts as its own IAM user: a scenario's config/rotate-root replaces the key of the user its
  // mount holds, which must not be the key every other mount holds.
  const prepareMount = async (at: string) => {
    const user = doppel.cloud.createPrincipal({ type: 'user', name: `doppel-service-${at}` })
    const credentials = { accessKeyId: user.access_key_id, secretAccessKey: user.secret_access_key }
    for (const request of vaultSetupPlan({ mount: at, cloudUrl, credentials, certificates })) await send(request)
  }
  try {
    await prepareMount(mount)
  } catch (error) {
    await closeServers()
    throw error
  }
  return {
    doppel,
    mount,
    cloudUrl,
    controlUrl: control.url,
    prepareMount,
    close: async () => {
      try {
        for (const request of vaultTeardownPlan(mount)) await send(request)
      } finally {
        await closeServers()
      }
    },
  }
}
