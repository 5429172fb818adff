/**
 * The messages of the `DoppelWarning` process warnings emitted while `run` runs (and the tick after it, on
 * which `process.emitWarning` emits).
 */
export async function doppelWarningsDuring(run: () => Promise<void>): Promise<string[]> {
  const seen: string[] = []
  const listener = (warning: Error) => {
    if (warning.name === 'DoppelWarning') seen.push(warning.message)
  }
  process.on('warning', listener)
  try {
    await run()
    await new Promise((resolve) => setImmediate(resolve))
  } finally {
    process.off('warning', listener)
  }
  return seen
}
