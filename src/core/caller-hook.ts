/**
 * A caller's callback (an access log, a line of warning), wrapped so that a throw in it changes nothing doppel
 * does: the answer, the next request and the retry of a write go on. The first throw is reported as a
 * `DoppelWarning` process warning; later ones would repeat it.
 */
export function callerHook<A extends unknown[]>(name: string, hook: ((...args: A) => void) | undefined): ((...args: A) => void) | undefined {
  if (hook === undefined) return undefined
  let threw = false
  return (...args) => {
    try {
      hook(...args)
    } catch (error) {
      if (threw) return
      threw = true
      const message = error instanceof Error ? error.message : String(error)
      process.emitWarning(`doppel: the ${name} callback threw (${message}); doppel goes on, and later throws are not reported`, 'DoppelWarning')
    }
  }
}
