import type { ValuePath } from './glossary.ts'

/** `steps[2].expect.body` for messages. */
export function formatPath(path: ValuePath): string {
  let out = ''
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`
    else out += out === '' ? segment : /^[A-Za-z0-9_$-]+$/.test(segment) ? `.${segment}` : `[${JSON.stringify(segment)}]`
  }
  return out
}
