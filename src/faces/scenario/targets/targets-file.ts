import { readFileSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { formatPath, SCHEMAS, validateAgainstSchema, parseYamlSource, ScenarioError } from '../../../features/documents/index.ts'
import type { TargetConfig } from './create-target.ts'
import type { HttpTargetOptions } from './http-target.ts'

/** A target as written in the file: the http options plus the emulator's. */
interface RawTarget extends Omit<HttpTargetOptions, 'name' | 'fetch'> {
  kind?: 'emulator' | 'http'
  seed?: string | number
  allowSha1?: boolean
  frozenClock?: boolean
  clockStart?: string
  fixtures?: string | string[]
}

export interface TargetsFile {
  names: string[]
  /** The named target with `${VAR}` / `${VAR:-default}` expanded. Throws ScenarioError for unset variables. */
  resolve(name: string): TargetConfig
}

/** Reads a `targets.yaml` that names several targets. Throws ScenarioError with `file:line` problems. */
export function loadTargetsFile(path: string, env: Record<string, string | undefined> = process.env): TargetsFile {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (error) {
    throw new ScenarioError([{ file: path, line: 0, message: `cannot read the file: ${(error as Error).message}` }])
  }
  const source = parseYamlSource(text, path)
  if (source.issues.length > 0) throw new ScenarioError(source.issues)
  const issues = validateAgainstSchema(source.value, SCHEMAS, 'targets.schema.json')
  if (issues.length > 0) {
    throw new ScenarioError(issues.map((i) => ({ file: path, line: source.locate(i.path, i.at), message: `${formatPath(i.path)}: ${i.message}` })))
  }
  const targets = (source.value as { targets: Record<string, RawTarget> }).targets
  return {
    names: Object.keys(targets),
    resolve(name) {
      const raw = targets[name]
      if (!raw) throw new ScenarioError([{ file: path, line: 0, message: `no target named "${name}" (one of ${Object.keys(targets).join(', ')})` }])
      const expand = (value: string, key: string) =>
        value.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g, (_, variable: string, fallback: string | undefined) => {
          const found = env[variable]
          if (found !== undefined && found !== '') return found
          if (fallback !== undefined) return fallback
          throw new ScenarioError([
            { file: path, line: source.locate(['targets', name, key]), message: `targets.${name}.${key}: environment variable ${variable} is not set` },
          ])
        })
      const expanded = Object.fromEntries(
        Object.entries(raw).map(([key, value]) => [key, typeof value === 'string' ? expand(value, key) : value]),
      ) as RawTarget
      return toConfig(name, expanded, dirname(path))
    },
  }
}

function toConfig(name: string, raw: RawTarget, directory: string): TargetConfig {
  const kind = raw.kind ?? (raw.url || raw.registryUrl ? 'http' : 'emulator')
  if (kind === 'emulator') {
    const fixtures = raw.fixtures === undefined ? undefined : Array.isArray(raw.fixtures) ? raw.fixtures : [raw.fixtures]
    return {
      kind,
      name,
      ...(raw.seed !== undefined && { seed: raw.seed }),
      ...(raw.profile && { profile: raw.profile }),
      ...(raw.token && { rootTokens: [raw.token] }),
      ...(raw.allowSha1 !== undefined && { allowSha1: raw.allowSha1 }),
      ...((raw.frozenClock !== undefined || raw.clockStart) && {
        clock: { ...(raw.frozenClock !== undefined && { frozen: raw.frozenClock }), ...(raw.clockStart && { start: raw.clockStart }) },
      }),
      ...(fixtures && { fixtures: fixtures.map((file) => resolve(directory, file)) }),
    }
  }
  return {
    kind,
    name,
    ...(raw.url && { url: raw.url }),
    ...(raw.registryUrl && { registryUrl: raw.registryUrl }),
    ...(raw.cloudUrl && { cloudUrl: raw.cloudUrl }),
    ...(raw.token !== undefined && { token: raw.token }),
    ...(raw.registryToken !== undefined && { registryToken: raw.registryToken }),
    ...(raw.profile && { profile: raw.profile }),
    ...(raw.mount && { mount: raw.mount }),
    ...(raw.capabilities && { capabilities: raw.capabilities }),
    ...(raw.maxRealWait !== undefined && { maxRealWait: raw.maxRealWait }),
  }
}
