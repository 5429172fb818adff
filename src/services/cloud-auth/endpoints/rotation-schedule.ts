/**
 * A `rotation_schedule` checked as Vault's automated rotation parses it (SDK `rotation.DefaultScheduler`:
 * robfig/cron v3's parser with the five standard fields, no descriptors), for the parser's error, which the
 * real service passes on (`failed to parse provided rotation_schedule: <error>`). doppel rotates nothing on
 * a schedule, so only the verdict is kept.
 */
import { parseGoInt, StrconvError } from '../../../core/go/go-strconv.ts'
import { goFields, goTrimSpaceText } from '../../../core/go/go-strings.ts'

interface Bounds {
  min: number
  max: number
  names?: Readonly<Record<string, number>>
}

const MONTHS = Object.fromEntries(['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'].map((name, i) => [name, i + 1]))
const DAYS = Object.fromEntries(['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'].map((name, i) => [name, i]))
/** Minute, hour, day of month, month, day of week. */
const FIELDS: readonly Bounds[] = [{ min: 0, max: 59 }, { min: 0, max: 23 }, { min: 1, max: 31 }, { min: 1, max: 12, names: MONTHS }, { min: 0, max: 6, names: DAYS }]

/**
 * The parser's error for a schedule, or undefined when it parses. A time zone prefix (`TZ=`, `CRON_TZ=`)
 * names a zone this machine's time zone data knows; without a space after it the real parser panics and
 * the connection closes unanswered, which `undefined` cannot say: `'panics'` then.
 */
export function rotationScheduleError(spec: string): string | undefined | 'panics' {
  if (spec === '') return 'empty spec string'
  let rest = spec
  if (rest.startsWith('TZ=') || rest.startsWith('CRON_TZ=')) {
    const space = rest.indexOf(' ')
    if (space === -1) return 'panics'
    const zone = rest.slice(rest.indexOf('=') + 1, space)
    const refused = goLoadLocationError(zone)
    if (refused) return `provided bad location ${zone}: ${refused}`
    rest = goTrimSpaceText(rest.slice(space))
  }
  if (rest.startsWith('@')) return `parser does not accept descriptors: ${rest}`
  const fields = goFields(rest)
  if (fields.length !== FIELDS.length) return `expected exactly ${FIELDS.length} fields, found ${fields.length}: [${fields.join(' ')}]`
  for (const [i, field] of fields.entries()) {
    for (const expr of field.split(',')) {
      if (expr === '') continue
      const error = rangeError(expr, FIELDS[i]!)
      if (error) return error
    }
  }
  return undefined
}

/** One `a`, `a-b`, `*` or `?`, with an optional `/step`, within the field's bounds. */
function rangeError(expr: string, bounds: Bounds): string | undefined {
  const [range = '', ...steps] = expr.split('/')
  const [low = '', ...highs] = range.split('-')
  let start: number
  let end: number
  try {
    if (low === '*' || low === '?') [start, end] = [bounds.min, bounds.max]
    else {
      start = intOrName(low, bounds.names)
      if (highs.length > 1) return `too many hyphens: ${expr}`
      end = highs.length === 1 ? intOrName(highs[0]!, bounds.names) : start
    }
    if (steps.length > 1) return `too many slashes: ${expr}`
    const step = steps.length === 1 ? nonNegativeInt(steps[0]!) : 1
    // A step after a single number runs to the field's end.
    if (steps.length === 1 && highs.length === 0) end = bounds.max
    if (start < bounds.min) return `beginning of range (${start}) below minimum (${bounds.min}): ${expr}`
    if (end > bounds.max) return `end of range (${end}) above maximum (${bounds.max}): ${expr}`
    if (start > end) return `beginning of range (${start}) beyond end of range (${end}): ${expr}`
    if (step === 0) return `step of range should be a positive number: ${expr}`
    return undefined
  } catch (error) {
    if (error instanceof RangeFieldError) return error.message
    throw error
  }
}

class RangeFieldError extends Error {}

function intOrName(text: string, names: Readonly<Record<string, number>> | undefined): number {
  const named = names?.[text.toLowerCase()]
  return named ?? nonNegativeInt(text)
}

/** `strconv.Atoi`, then refused below zero, in the parser's words. */
function nonNegativeInt(text: string): number {
  let value: number
  try {
    value = parseGoInt(text, 10, 'Atoi')
  } catch (error) {
    if (error instanceof StrconvError) throw new RangeFieldError(`failed to parse int from ${text}: ${error.message}`)
    throw error
  }
  if (value < 0) throw new RangeFieldError(`negative number (${value}) not allowed: ${text}`)
  return value
}

/** Go's `time.LoadLocation` refusal of a zone name, or undefined when the zone is known. */
function goLoadLocationError(name: string): string | undefined {
  if (name === '' || name === 'UTC' || name === 'Local') return undefined
  if (name.includes('..') || name.startsWith('/') || name.startsWith('\\')) return 'time: invalid location name'
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name })
    return undefined
  } catch {
    return `unknown time zone ${name}`
  }
}
