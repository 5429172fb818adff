/**
 * The worker side of `parseOffThread`: parses a YAML (or JSON) document, checks it against a shipped
 * schema, and answers line look-ups for paths into it until it is told to stop.
 */
import { parentPort, workerData } from 'node:worker_threads'
import type { ValuePath } from './glossary.ts'
import { packLargeValue, takeTexts } from './large-values.ts'
import { findTemplate } from './template-marker.ts'
import { SCHEMAS } from './shipped-schemas.ts'
import { validateAgainstSchema } from './schema-validator.ts'
import { parseYamlSource } from './yaml-source.ts'
import { LISTED_ISSUES } from './document-error.ts'
import type { JsonJob, ParseJob, ParseResult } from './parse-off-thread.ts'

const job = workerData as ParseJob | JsonJob
if (job.kind === 'json') sendJson(job)
else parseDocument(job)

/** About this many characters of slices go in one message, each when asked for: taking one costs milliseconds. */
const MESSAGE_CHARS = 4 * 1024 * 1024

function sendJson(job: JsonJob): void {
  const parsed = parseJson(job)
  if ('error' in parsed) return parentPort!.postMessage(parsed)
  const { skeleton, texts } = takeTexts(parsed.packed)
  parentPort!.postMessage({ skeleton, jsonLength: parsed.jsonLength, count: texts.length })
  let next = 0
  parentPort!.on('message', () => {
    const batch: string[] = []
    for (let chars = 0; next < texts.length && (batch.length === 0 || chars + texts[next]!.length <= MESSAGE_CHARS); next++) {
      chars += texts[next]!.length
      batch.push(texts[next]!)
    }
    parentPort!.postMessage(batch)
  })
}

/** A JSON body (its nesting checked by the caller). */
function parseJson({ bytes }: JsonJob) {
  let value: unknown
  try {
    value = JSON.parse(new TextDecoder().decode(bytes))
  } catch (error) {
    if (error instanceof SyntaxError) return { error: 'syntax' }
    throw error
  }
  return { packed: packLargeValue(value), jsonLength: JSON.stringify(value).length }
}

function parseDocument(job: ParseJob): void {
  const { text, file, schema } = job
  const source = parseYamlSource(text, file)
  const result: ParseResult = {
    value: packLargeValue(source.value),
    issues: source.issues,
    schemaIssues:
      source.issues.length > 0 || schema === undefined
        ? []
        : // Only the issues a refusal lists are looked up (each look-up walks the document); the rest are counted.
          validateAgainstSchema(source.value, SCHEMAS, schema).map((issue, index) => ({ ...issue, line: index < LISTED_ISSUES ? source.locate(issue.path, issue.at) : 0 })),
    ...(job.findTemplate && { templatePath: findTemplate(source.value) ?? null }),
  }
  parentPort!.postMessage(result)
  parentPort!.on('message', ({ id, path, at }: { id: number; path: ValuePath; at: 'key' | 'value' }) => {
    parentPort!.postMessage({ id, line: source.locate(path, at) })
  })
}
