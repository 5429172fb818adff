import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

const CONFORMANCE = new URL('../../conformance/', import.meta.url).pathname

/**
 * How many conformance scenarios run only on a target of the other profile (labelled `profile-<other>`):
 * what a run on `profile` reports as skipped.
 */
function otherProfileScenarios(profile: 'service' | 'vault'): number {
  const other = profile === 'service' ? 'profile-vault' : 'profile-service'
  const files = readdirSync(CONFORMANCE, { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.yaml'))
  return files.filter((name) => new RegExp(`^labels:.*\\b${other}\\b`, 'm').test(readFileSync(join(CONFORMANCE, name), 'utf8'))).length
}

/** The closing line of a conformance run on `profile` in which every scenario for it passed. */
export const allPassedOn = (profile: 'service' | 'vault') => new RegExp(`^[1-9]\\d* passed, 0 failed, ${otherProfileScenarios(profile)} skipped$`)
