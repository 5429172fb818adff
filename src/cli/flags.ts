/**
 * Flags more than one command takes, each declared once, checked once, with one message: a flag means
 * the same on every command that has it.
 */
import type { Profile } from '../core/profile.ts'
import { UsageError } from './usage-error.ts'

/** `--profile service|vault`; each command says what no flag means (its help, when it differs). */
export const PROFILE_OPTION = { profile: { type: 'string', value: '<name>', help: 'service (default) or vault' } } as const

export function profileFlag(command: string, value: string | undefined): Profile['name'] | undefined {
  if (value === undefined || value === 'service' || value === 'vault') return value
  throw new UsageError(`doppel ${command}: --profile must be service or vault, not "${value}"`)
}

/** `--seed <n>`: the emulator's random seed, for repeatable ids and tokens. */
export const SEED_OPTION = { seed: { type: 'string', value: '<n>', help: 'Random seed: makes ids and tokens repeatable' } } as const

export const isSeed = (value: string): boolean => /^-?\d{1,16}$/.test(value)

/** The seed as given: the emulator hashes the text, so `--seed 42` keeps the ids it always gave. */
export function seedFlag(command: string, value: string | undefined): string | undefined {
  if (value === undefined || isSeed(value)) return value
  throw new UsageError(`doppel ${command}: --seed must be an integer, not "${value}"`)
}

/** `--pid-file <path>` of the long-running commands: their process id, for a script that started them through npx. */
export const PID_FILE_OPTION = {
  'pid-file': { type: 'string', value: '<path>', help: "Write doppel's process id here while it runs (to signal it behind npx)" },
} as const

/** `--fixtures <file>`: a YAML fixture file loaded at start and on every reset; repeatable. */
export const FIXTURES_OPTION = {
  fixtures: { type: 'string', multiple: true, value: '<file>', help: 'Load a YAML fixture file at start and on every reset (repeatable)' },
} as const

/** `--quiet` of the long-running commands. */
export const QUIET_OPTION = { quiet: { type: 'boolean', default: false, help: 'Do not log requests to stderr' } } as const

/** `--port` (default `port`) and `--host` (default loopback) of a command that listens. */
export function listenOptions<const P extends string>(port: P) {
  return {
    port: { type: 'string', default: port, value: '<n>', help: `Port to listen on (default ${port}; 0 picks a free port)` },
    host: { type: 'string', default: '127.0.0.1', value: '<addr>', help: 'Address to bind (default 127.0.0.1)' },
  } as const
}

export function portFlag(command: string, flag: string, value: string): number {
  const port = Number(value)
  if (!/^\d+$/.test(value) || port > 65535) throw new UsageError(`doppel ${command}: ${flag} must be a port number from 0 to 65535, not "${value}"`)
  return port
}

/** A value of `--target` that means a server by URL rather than `emulator` or a targets-file name. */
export const looksLikeUrl = (value: string): boolean => /^[a-z][a-z0-9+.-]*:/i.test(value) && value.includes('//')

/**
 * A server's base URL (`--target`, `--upstream`, `--registry-url`): what doppel's requests could not be
 * sent to, named, so a mistake is not reported later as an unreachable server.
 */
export function baseUrlFlag(command: string, flag: string, value: string): string {
  const problem = baseUrlProblem(value)
  if (problem) throw new UsageError(`doppel ${command}: ${flag} ${value}: ${problem}`)
  return value
}

// The Fetch standard's "bad ports": Node's fetch fails at once on them (as "bad port") without connecting.
const BAD_PORTS = new Set(
  '1 7 9 11 13 15 17 19 20 21 22 23 25 37 42 43 53 69 77 79 87 95 101 102 103 104 109 110 111 113 115 117 119 123 135 137 139 143 161 179 389 427 465 512 513 514 515 526 530 531 532 540 548 554 556 563 587 601 636 989 990 993 995 1719 1720 1723 2049 3659 4045 4190 5060 5061 6000 6566 6665 6666 6667 6668 6669 6679 6697 10080'.split(
    ' ',
  ),
)

const URL_SHAPE = 'expected http(s)://host[:port][/path]'

/** What keeps `value` from being an http(s) base URL that fetch will send to, or undefined. */
export function baseUrlProblem(value: string): string | undefined {
  const parts = /^([^:/?#]+):\/\/([^/?#]*)([^?#]*)(.*)$/.exec(value)
  if (!parts) return `not a URL; ${URL_SHAPE}`
  const [, scheme, authority, , rest] = parts as unknown as [string, string, string, string, string]
  if (!/^https?$/i.test(scheme)) return `the scheme is "${scheme}"; expected http or https`
  if (authority.includes('@')) return 'a user name or password in the URL is refused by fetch; pass the token with --token'
  const hostPort = /^(\[[^\]]*\]?|[^:]*)(?::(.*))?$/.exec(authority)!
  const [, host, port] = hostPort as unknown as [string, string, string | undefined]
  if (host === '') return `no host; ${URL_SHAPE}`
  if (port !== undefined && port !== '') {
    if (!/^\d+$/.test(port)) return `the port "${port}" is not a number`
    if (Number(port) < 1 || Number(port) > 65535) return `port ${port} is out of range; expected 1 to 65535`
    if (BAD_PORTS.has(String(Number(port)))) return `port ${Number(port)} is one fetch refuses to connect to (a "bad port" of the Fetch standard); choose another port`
  }
  if (rest.startsWith('?')) return 'a query cannot be part of a base URL: request paths are appended to it'
  if (rest.startsWith('#')) return 'a fragment cannot be part of a base URL: request paths are appended to it'
  if (!URL.canParse(value)) return `the host "${host}" is not a valid host name or address`
  return undefined
}
