/**
 * IAM's wildcard match (`*` any run, `?` one character), case-sensitive unless asked. No regex is built from
 * the pattern: the pattern is split at `*` and each piece is found greedily left to right, which is exact
 * for this kind of glob and never backtracks (time at most text × pattern, both bounded by the inputs).
 */
export function wildcardMatch(pattern: string, text: string, ignoreCase = false): boolean {
  const p = ignoreCase ? pattern.toLowerCase() : pattern
  const t = ignoreCase ? text.toLowerCase() : text
  const pieces = p.split('*')
  if (pieces.length === 1) return t.length === p.length && pieceAt(p, t, 0)
  const first = pieces[0]!
  const last = pieces[pieces.length - 1]!
  if (t.length < first.length + last.length) return false
  if (!pieceAt(first, t, 0) || !pieceAt(last, t, t.length - last.length)) return false
  let from = first.length
  const end = t.length - last.length
  for (let i = 1; i < pieces.length - 1; i++) {
    const piece = pieces[i]!
    const found = findPiece(piece, t, from, end)
    if (found < 0) return false
    from = found + piece.length
  }
  return true
}

/** Whether `piece` (with `?`) matches `text` at `at`. */
function pieceAt(piece: string, text: string, at: number): boolean {
  if (at < 0 || at + piece.length > text.length) return false
  for (let i = 0; i < piece.length; i++) if (piece[i] !== '?' && piece[i] !== text[at + i]) return false
  return true
}

/** The first index in [from, end - piece.length] where `piece` matches, or -1. */
function findPiece(piece: string, text: string, from: number, end: number): number {
  if (!piece.includes('?')) {
    const found = text.indexOf(piece, from)
    return found >= 0 && found + piece.length <= end ? found : -1
  }
  for (let at = from; at + piece.length <= end; at++) if (pieceAt(piece, text, at)) return at
  return -1
}
