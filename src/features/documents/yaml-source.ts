import { isMap, isPair, isScalar, isSeq, LineCounter, parseDocument, visit, type Document, type Node } from 'yaml'
import { checkYamlDepth, YamlNestingError } from '../../core/bounded-parse.ts'
import type { Locate, ValuePath } from './glossary.ts'
import type { ScenarioIssue } from './document-error.ts'

export interface YamlSource {
  /** The document as plain data (aliases resolved). Undefined when the YAML did not parse. */
  value: unknown
  /** YAML syntax errors (duplicate keys, bad indentation...), with lines. */
  issues: ScenarioIssue[]
  locate: Locate
}

/**
 * Parses YAML keeping node ranges, so any path into the value maps back to a line. JSON is YAML, so
 * JSON bodies take the same road.
 */
export function parseYamlSource(text: string, file: string): YamlSource {
  try {
    // Before the parser: it takes seconds and gigabytes on a deep enough document.
    checkYamlDepth(text)
  } catch (error) {
    if (!(error instanceof YamlNestingError)) throw error
    return { value: undefined, issues: [{ file, line: error.line, message: error.message }], locate: () => error.line }
  }
  const lineCounter = new LineCounter()
  // The parser's own duplicate-key check compares every key with every other (quadratic: seconds for a map
  // of 20,000 keys); the same check with a set per map is linear.
  const doc = parseDocument(text, { lineCounter, uniqueKeys: false, prettyErrors: false })
  const lineAt = (offset: number) => lineCounter.linePos(offset).line
  const lines = text.split('\n')
  const issues: ScenarioIssue[] = []
  const errors = [...doc.errors, ...duplicateKeys(doc)].sort((a, b) => a.pos[0] - b.pos[0])
  for (const error of errors) {
    const line = error.linePos?.[0].line ?? lineAt(error.pos[0])
    // One error per line: a single stray brace makes the parser report a cascade on the same line.
    if (issues.some((issue) => issue.line === line)) continue
    let message = error.message.replace(/ at line \d+, column \d+:[\s\S]*$/, '').replace(/\s+$/, '')
    if (lines[line - 1]?.includes('${{')) message += ' (inside { } or [ ], quote values that hold ${{ }})'
    issues.push({ file, line, message })
  }
  const locate: Locate = (path, at = 'value') => {
    const node = findNode(doc, path, at)
    return node?.range ? lineAt(node.range[0]) : 1
  }
  let value: unknown
  if (issues.length === 0) {
    try {
      value = doc.toJS({ maxAliasCount: 1000 })
      if (isCircular(value, new Set())) throw new Error('an alias refers to a collection that contains it (circular data)')
    } catch (error) {
      // Unresolved, runaway or circular aliases only show when the document is turned into data.
      issues.push({ file, line: 1, message: (error as Error).message })
      value = undefined
    }
  }
  return { value, issues, locate }
}

/** A key that stands twice in one map, reported as the parser's own `uniqueKeys` check words it. */
function duplicateKeys(doc: Document): { message: string; pos: [number, number]; linePos?: undefined }[] {
  const found: { message: string; pos: [number, number] }[] = []
  visit(doc, {
    Map(_, map) {
      const seen = new Set<unknown>()
      for (const pair of map.items) {
        // Scalar keys compare by value (so `1` and `"1"` differ); a collection as a key is never equal to another.
        if (!isScalar(pair.key)) continue
        const key = pair.key.value
        if (seen.has(key)) found.push({ message: 'Map keys must be unique', pos: pair.key.range ? [pair.key.range[0], pair.key.range[1]] : [0, 0] })
        seen.add(key)
      }
    },
  })
  return found
}

/** The deepest node along `path` (the key node of the last step when `at` is `key`). */
function findNode(doc: Document, path: ValuePath, at: 'key' | 'value'): Node | undefined {
  let node = doc.contents as Node | null
  if (!node) return undefined
  for (let i = 0; i < path.length; i++) {
    const segment = path[i]!
    const last = i === path.length - 1
    if (isMap(node)) {
      const pair = node.items.find((item) => isPair(item) && keyText(item.key) === String(segment))
      if (!pair) return node
      if (last && at === 'key' && pair.key && typeof pair.key === 'object') return pair.key as Node
      if (!pair.value || typeof pair.value !== 'object') return (pair.key as Node) ?? node
      node = pair.value as Node
    } else if (isSeq(node)) {
      const item = node.items[Number(segment)]
      if (!item || typeof item !== 'object') return node
      node = item as Node
    } else {
      return node
    }
  }
  return node
}

function keyText(key: unknown): string | undefined {
  if (isScalar(key)) return String(key.value)
  return typeof key === 'string' ? key : undefined
}

function isCircular(value: unknown, ancestors: Set<object>): boolean {
  if (typeof value !== 'object' || value === null) return false
  if (ancestors.has(value)) return true
  ancestors.add(value)
  const children = Array.isArray(value) ? value : Object.values(value)
  const circular = children.some((child) => isCircular(child, ancestors))
  ancestors.delete(value)
  return circular
}
