import { createEmulatorTarget, type EmulatorTargetOptions } from './emulator-target.ts'
import { createHttpTarget, type HttpTargetOptions } from './http-target.ts'
import type { Target } from './target.ts'

/** How to reach a target: in process, or a server by URL. */
export type TargetConfig = ({ kind: 'emulator' } & EmulatorTargetOptions) | ({ kind: 'http' } & HttpTargetOptions)

/**
 * Creates a target from a config, `'emulator'`, or a URL. HTTP targets are probed: a `doppel serve`
 * gets every capability; an unreachable one throws TargetUnreachableError.
 *
 * @example
 * const target = await createTarget('http://127.0.0.1:8200')
 */
export async function createTarget(config: TargetConfig | string = 'emulator'): Promise<Target> {
  if (typeof config === 'string') {
    if (config === 'emulator') return createEmulatorTarget()
    return createHttpTarget({ url: config, name: config })
  }
  if (config.kind === 'emulator') return createEmulatorTarget(config)
  return createHttpTarget(config)
}
