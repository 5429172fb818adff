/**
 * The Date of a UTC calendar time, for any year 0–9999 as written: `Date.UTC` reads the
 * years 0–99 as 1900–1999 (where 0000-02-29, a leap day, would become 1 March 1900). Out-of-range fields
 * roll over as `Date.UTC`'s do; callers compare the day to see that it did not.
 */
export function utcDate(year: number, monthIndex: number, day: number, hour = 0, minute = 0, second = 0): Date {
  return new Date(utcMillis(year, monthIndex, day, hour, minute, second))
}

/**
 * A time to the second in UTC, RFC 3339 with `Z` (`2026-11-30T10:52:07Z`): as AWS prints times, and as
 * Go's `time.RFC3339` prints a UTC time. A fraction of a second is dropped, not rounded.
 */
export function isoSeconds(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z')
}

/** `YYYYMMDDTHHMMSSZ`, the time format of SigV4 and of its error messages. */
export function formatBasicIso(ms: number): string {
  const date = new Date(Math.floor(ms / 1000) * 1000)
  const year = date.getUTCFullYear()
  // Years past 9999 or before 0 are written with a sign, and an invalid time throws, as `toISOString` does.
  if (!(year >= 0 && year <= 9999)) return isoSeconds(ms).replace(/[-:]/g, '')
  // Written from the date's fields (every signed request formats its time once, every check once more):
  // a third of the time of cutting `isoSeconds`' text into place.
  return `${String(year).padStart(4, '0')}${twoDigits(date.getUTCMonth() + 1)}${twoDigits(date.getUTCDate())}T${twoDigits(date.getUTCHours())}${twoDigits(date.getUTCMinutes())}${twoDigits(date.getUTCSeconds())}Z`
}

const twoDigits = (n: number): string => (n < 10 ? `0${n}` : `${n}`)

/** `utcDate`'s time as epoch milliseconds, without making a Date when the year is not one `Date.UTC` misreads. */
export function utcMillis(year: number, monthIndex: number, day: number, hour = 0, minute = 0, second = 0): number {
  if (year >= 100) return Date.UTC(year, monthIndex, day, hour, minute, second)
  const date = new Date(0)
  date.setUTCFullYear(year, monthIndex, day)
  date.setUTCHours(hour, minute, second)
  return date.getTime()
}
