/** Semantic versions as the registry takes them (semver 2.0.0, prerelease and build allowed). */

const NUMERIC = '0|[1-9]\\d*'
const PRERELEASE_ID = `(?:${NUMERIC}|\\d*[A-Za-z-][0-9A-Za-z-]*)`
const SEMVER = new RegExp(
  `^(${NUMERIC})\\.(${NUMERIC})\\.(${NUMERIC})` +
    `(?:-(${PRERELEASE_ID}(?:\\.${PRERELEASE_ID})*))?` +
    `(?:\\+([0-9A-Za-z-]+(?:\\.[0-9A-Za-z-]+)*))?$`,
)

interface Semver {
  core: [bigint, bigint, bigint]
  prerelease: string[]
}

function parse(version: string): Semver | undefined {
  const m = SEMVER.exec(version)
  if (!m) return undefined
  return { core: [BigInt(m[1]!), BigInt(m[2]!), BigInt(m[3]!)], prerelease: m[4] ? m[4].split('.') : [] }
}

/** Whether `version` is a semantic version such as `1.2.3`, `1.2.3-alpha.1` or `1.2.3-alpha+build`. */
export function isSemver(version: string): boolean {
  return SEMVER.test(version)
}

/** Whether `version` has a prerelease part (`1.0.0-rc.1`). */
export function isPrerelease(version: string): boolean {
  return (parse(version)?.prerelease.length ?? 0) > 0
}

/** Semver precedence: negative, zero or positive. Build metadata is ignored; invalid versions sort first. */
export function compareSemver(a: string, b: string): number {
  const x = parse(a)
  const y = parse(b)
  if (!x || !y) return x ? 1 : y ? -1 : a < b ? -1 : a > b ? 1 : 0
  for (let i = 0; i < 3; i++) {
    if (x.core[i]! !== y.core[i]!) return x.core[i]! < y.core[i]! ? -1 : 1
  }
  if (x.prerelease.length === 0 || y.prerelease.length === 0) return y.prerelease.length - x.prerelease.length
  for (let i = 0; i < Math.min(x.prerelease.length, y.prerelease.length); i++) {
    const order = comparePrereleaseId(x.prerelease[i]!, y.prerelease[i]!)
    if (order !== 0) return order
  }
  return x.prerelease.length - y.prerelease.length
}

function comparePrereleaseId(a: string, b: string): number {
  const an = /^\d+$/.test(a)
  const bn = /^\d+$/.test(b)
  if (an && bn) return BigInt(a) === BigInt(b) ? 0 : BigInt(a) < BigInt(b) ? -1 : 1
  if (an !== bn) return an ? -1 : 1
  return a < b ? -1 : a > b ? 1 : 0
}
