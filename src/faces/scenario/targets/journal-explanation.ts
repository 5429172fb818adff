import type { Explanation } from '../../../core/explanation.ts'
import type { JournalEntry } from '../../../core/journal.ts'
import type { TargetControl } from './target.ts'

/**
 * The explanation `doppel serve` journaled for a refused request: the newest entry with the request's
 * method and path and the answer's status. Read only for a failing step (the journal can be large).
 */
export async function journalExplanation(control: TargetControl, request: { method: string; url: string }, response: Response): Promise<Explanation | undefined> {
  if (response.status < 400) return undefined
  const path = new URL(request.url).pathname
  const journal = (await control.inspect('journal').catch(() => undefined)) as { entries?: JournalEntry[] } | undefined
  const entries = journal?.entries ?? []
  for (let i = entries.length - 1; i >= 0; i--) {
    const entry = entries[i]!
    if (entry.method === request.method && entry.status === response.status && new URL(entry.url).pathname === path) return entry.explanation
  }
  return undefined
}
