/**
 * Go's `time.RFC3339Nano` for an instant in epoch milliseconds, in UTC: fractional seconds with trailing
 * zeros dropped (`2024-05-01T10:11:12.5Z`), none at all on a whole second (`2024-05-01T10:11:12Z`).
 */
export function formatRfc3339Nano(ms: number): string {
  const iso = new Date(ms).toISOString()
  return iso.replace(/\.(\d+)Z$/, (_, digits: string) => {
    const trimmed = digits.replace(/0+$/, '')
    return trimmed === '' ? 'Z' : `.${trimmed}Z`
  })
}
