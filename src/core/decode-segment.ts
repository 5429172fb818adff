/** A path segment percent-decoded; undefined when it holds a broken escape (callers choose: as sent, or no match). */
export function decodeSegment(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment)
  } catch {
    return undefined
  }
}

/** A path segment percent-decoded; one with a broken escape is kept as sent. */
export function decodeOrKeep(segment: string): string {
  return decodeSegment(segment) ?? segment
}
