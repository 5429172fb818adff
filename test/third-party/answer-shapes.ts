/** One answer reduced to its shape by python/cloud_differential.py. */
export interface AnswerShape {
  call: string
  status: number
  content_type: string
  request_id_header: string[]
  namespace: string
  error: { code: string | null; type: string | null } | null
  /** Element paths from the root, in document order. */
  shape: string[]
}

const REQUEST_ID = /\/(RequestId|requestId|RequestID)$/

/**
 * How two answers to the same call differ in shape, one sentence each, an empty list when they do not.
 * Element paths lose their root; a subtree that only one side has is named once, by its top element; order is
 * compared among the elements both have, per parent.
 */
export function shapeDifferences(moto: AnswerShape, doppel: AnswerShape): string[] {
  const found: string[] = []
  const differ = (what: string, a: unknown, b: unknown) => {
    if (JSON.stringify(a) !== JSON.stringify(b)) found.push(`${what}: moto ${JSON.stringify(a)}, doppel ${JSON.stringify(b)}`)
  }
  differ('status', moto.status, doppel.status)
  differ('error', moto.error, doppel.error)
  differ('content type', moto.content_type, doppel.content_type)
  differ('namespace', moto.namespace, doppel.namespace)
  // Answers of different kinds (a result and an error) have nothing more in common to compare.
  if (moto.shape[0] !== doppel.shape[0]) return found
  differ('request id', [...moto.request_id_header, ...moto.shape.filter((p) => REQUEST_ID.test(p))], [
    ...doppel.request_id_header,
    ...doppel.shape.filter((p) => REQUEST_ID.test(p)),
  ])
  const strip = (path: string) => path.slice(path.indexOf('/') + 1)
  const a = moto.shape.slice(1).filter((p) => !REQUEST_ID.test(p)).map(strip)
  const b = doppel.shape.slice(1).filter((p) => !REQUEST_ID.test(p)).map(strip)
  const only = (mine: string[], theirs: string[]) => {
    const other = new Set(theirs)
    const missing = [...new Set(mine.filter((p) => !other.has(p)))]
    return missing.filter((p) => !missing.some((top) => p.startsWith(`${top}/`)))
  }
  if (only(a, b).length > 0) found.push(`only moto: ${only(a, b).join(', ')}`)
  if (only(b, a).length > 0) found.push(`only doppel: ${only(b, a).join(', ')}`)
  const both = new Set(a.filter((p) => b.includes(p)))
  const parents = [...new Set([...both].map(parentOf))]
  for (const parent of parents) {
    const children = (paths: string[]) => [...new Set(paths.filter((p) => both.has(p) && parentOf(p) === parent))]
    if (JSON.stringify(children(a)) !== JSON.stringify(children(b))) {
      const name = (p: string) => p.slice(p.lastIndexOf('/') + 1)
      found.push(`order under ${parent || '(result)'}: moto ${children(a).map(name).join(' ')}; doppel ${children(b).map(name).join(' ')}`)
    }
  }
  return found
}

const parentOf = (path: string): string => path.slice(0, Math.max(0, path.lastIndexOf('/')))

/** The element paths of an answer, without its root and request id: the fields the comparison looks at. */
export function comparedFields(answer: AnswerShape): string[] {
  return [...new Set(answer.shape.slice(1).filter((p) => !REQUEST_ID.test(p)))]
}
