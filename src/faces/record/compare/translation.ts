/**
 * Upstream values → the emulator's own: the ids, keys, tokens and signed documents each side generated
 * for the same request. Learned by walking both answers side by side; applied to the next requests the
 * emulator is sent, so it is asked about its own instance, not the upstream's.
 */
import { Refs } from '../refs.ts'

export class Translation {
  readonly refs = new Refs()
  /** Emulator-side principal credentials by the upstream's access key id, to sign an iam login afresh. */
  readonly credentials = new Map<string, { access_key_id: string; secret_access_key: string; session_token?: string }>()

  learn(upstream: unknown, emulator: unknown): void {
    if (typeof upstream === 'string' && typeof emulator === 'string') {
      if (upstream !== emulator && upstream.length >= 8) this.map(upstream, emulator)
      return
    }
    if (Array.isArray(upstream) && Array.isArray(emulator)) {
      upstream.forEach((item, index) => this.learn(item, emulator[index]))
      return
    }
    if (isObject(upstream) && isObject(emulator)) {
      for (const [key, value] of Object.entries(upstream)) if (Object.hasOwn(emulator, key)) this.learn(value, emulator[key])
      if (typeof upstream.access_key_id === 'string' && typeof emulator.access_key_id === 'string' && typeof emulator.secret_access_key === 'string') {
        this.credentials.set(upstream.access_key_id, emulator as never)
      }
    }
  }

  /** A signed document travels without line feeds, and an identity document base64-encoded. */
  map(upstream: string, emulator: string): void {
    this.refs.add(upstream, { template: emulator })
    if (upstream.includes('\n')) this.refs.add(upstream.replace(/\r?\n/g, ''), { template: emulator.replace(/\r?\n/g, '') })
    if (upstream.startsWith('{')) this.refs.add(Buffer.from(upstream).toString('base64'), { template: Buffer.from(emulator).toString('base64') })
  }

  /** The emulator's value for an upstream one (unchanged when none was learned). */
  text(value: string): string {
    return this.refs.template(value)
  }

  json(value: unknown): unknown {
    return this.refs.templateJson(value)
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return !!value && typeof value === 'object' && !Array.isArray(value)
}
