import { setImmediate as nextTurn } from 'node:timers/promises'

/**
 * A pause for long work on the event loop: resolves at once until `budgetMs` has passed since the last real
 * pause, then waits one turn of the loop (`setImmediate`), so that requests and timers run in between.
 */
export function loopYielder(budgetMs = 5): () => Promise<void> {
  let since = performance.now()
  return async () => {
    if (performance.now() - since < budgetMs) return
    await nextTurn()
    since = performance.now()
  }
}
