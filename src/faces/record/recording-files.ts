/**
 * The scenario files of a recording, written as it goes: each exchange is added to its scenario and the
 * file is rewritten (temporary file, then rename) before the client gets its answer, so a crash loses at
 * most the exchange in flight and never leaves a torn file. One scenario per session, or one per service
 * (`--split-by service`). Files are 0600 and a directory doppel creates 0700: a recording may name
 * accounts and hosts even with its secrets left out.
 */
import { mkdir, open, rename, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { stringify } from 'yaml'
import { errorKind } from '../../core/doppel-error.ts'
import type { Exchange } from './exchange.ts'
import { ScenarioBuilder } from './scenario-builder.ts'
import { controlPath } from '../../services/control/urls.ts'
import { REGISTRY_URLS } from '../../services/registry/urls.ts'

export const SPLIT_RULES = ['session', 'service'] as const
export type SplitRule = (typeof SPLIT_RULES)[number]

export interface RecordingOptions {
  out: string
  splitBy: SplitRule
  /** File and scenario name; default `recording-<UTC time>`. */
  name?: string
  now?: Date
  /**
   * Reads the upstream's snapshot at the start, restored first by every scenario (see `BuildOptions`); called
   * once `out` is known to be usable, so a bad `--out` is said before any wait on the upstream.
   */
  readStartingState?: () => Promise<unknown>
  /** The upstream's base URL (see `BuildOptions`). */
  upstream?: string
}

/** `--out` cannot hold the recording: said at start, not after the session. */
export class RecordingOutError extends errorKind('RecordingOutError', 'DOPPEL_STARTUP') {}

type Service = 'auth' | 'registry'

interface ScenarioFile {
  path: string
  builder: ScenarioBuilder
  /** Each step's YAML, made once: a step does not change after it is added. */
  steps: Buffer[]
  written: boolean
}

const YAML_OPTIONS = { lineWidth: 0, aliasDuplicateObjects: false } as const

/** Buffers per gathered write (below the usual IOV_MAX of 1024). */
const WRITE_BATCH = 1000

export class RecordingFiles {
  readonly #out: string
  readonly #files: Map<Service | 'session', ScenarioFile>

  private constructor(out: string, files: Map<Service | 'session', ScenarioFile>) {
    this.#out = out
    this.#files = files
  }

  /** Creates `out` (0700) and checks a file can be made in it; throws `RecordingOutError` otherwise. */
  static async open(options: RecordingOptions): Promise<RecordingFiles> {
    const stamp = (options.now ?? new Date()).toISOString().replace(/[-:]/g, '').replace(/\..*$/, '').replace('T', '-')
    const base = options.name ?? `recording-${stamp}`
    try {
      await mkdir(options.out, { recursive: true, mode: 0o700 })
      const probe = join(options.out, `.${base}.probe-${process.pid}`)
      await (await open(probe, 'wx', 0o600)).close()
      await rm(probe)
    } catch (error) {
      throw new RecordingOutError(`doppel record: cannot write to --out ${options.out}: ${(error as Error).message}`)
    }
    const startingState = await options.readStartingState?.()
    const file = (name: string): ScenarioFile => {
      const builder = new ScenarioBuilder({
        name,
        labels: ['recorded'],
        ...(startingState !== undefined && { startingState }),
        ...(options.upstream !== undefined && { upstream: options.upstream }),
      })
      return { path: join(options.out, `${name}.yaml`), builder, steps: [], written: false }
    }
    const files = new Map<Service | 'session', ScenarioFile>(
      options.splitBy === 'session' ? [['session', file(base)]] : [['auth', file(`${base}-auth`)], ['registry', file(`${base}-registry`)]],
    )
    return new RecordingFiles(options.out, files)
  }

  /** Adds the exchange to its scenario(s) and rewrites them. */
  async add(exchange: Exchange): Promise<void> {
    const session = this.#files.get('session')
    for (const file of session ? [session] : servicesOf(exchange).map((service) => this.#files.get(service)!)) await this.#write(file, exchange)
  }

  /** The files written so far. */
  get written(): string[] {
    return [...this.#files.values()].filter((file) => file.written).map((file) => file.path)
  }

  async #write(file: ScenarioFile, exchange: Exchange): Promise<void> {
    file.builder.add(exchange)
    for (const step of file.builder.steps.slice(file.steps.length)) file.steps.push(Buffer.from(stringify([step], YAML_OPTIONS)))
    // A session of control calls only has nothing to replay.
    if (!file.builder.hasRequests) return
    const { steps: _, ...header } = file.builder.document()
    const temporary = join(this.#out, `.${file.path.slice(this.#out.length + 1)}.tmp`)
    await rm(temporary, { force: true })
    const handle = await open(temporary, 'wx', 0o600)
    try {
      const parts = [Buffer.from(stringify(header, YAML_OPTIONS) + 'steps:\n'), ...file.steps]
      // Gathered writes: one call per WRITE_BATCH steps, not one per step (a rewrite per exchange).
      for (let at = 0; at < parts.length; at += WRITE_BATCH) await handle.writev(parts.slice(at, at + WRITE_BATCH))
    } finally {
      await handle.close()
    }
    await rename(temporary, file.path)
    file.written = true
  }
}

/** Which scenarios an exchange belongs to when split by service (fixtures set up both). */
function servicesOf(exchange: Exchange): Service[] {
  const path = exchange.target.split('?')[0]!
  if (path === controlPath('fixtures')) return ['auth', 'registry']
  return REGISTRY_URLS.ownsPath(path) ? ['registry'] : ['auth']
}
