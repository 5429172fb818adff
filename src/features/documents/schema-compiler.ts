import { createRequire } from 'node:module'
import type { ValidateFunction } from 'ajv'
import type { JsonSchema, SchemaRegistry } from './schema-validator.ts'

/** The shipped schemas compiled by ajv, with the address of every subschema so one branch can be re-checked alone. */
export interface CompiledSchemas {
  /** ajv's validator for a schema object of the registry (the whole document or any subschema). */
  validator(schema: JsonSchema): ValidateFunction
  /** The schema a `$ref` written inside `from` points at. */
  resolve(ref: string, from: JsonSchema): JsonSchema | boolean
  /** Every schema object `schema` can apply, through subschemas and `$ref`s: the errors it may have caused. */
  reach(schema: JsonSchema | boolean): ReadonlySet<unknown>
}

interface Location {
  document: string
  pointer: string
}

// A cache of compiled code for immutable schemas, not state: compiling costs hundreds of milliseconds, so it
// happens once per process, on the first file validated, never on `import 'doppel'`.
const compiled = new WeakMap<SchemaRegistry, CompiledSchemas>()

/** The compiled form of `registry`, built on first use. */
export function compileSchemas(registry: SchemaRegistry): CompiledSchemas {
  let found = compiled.get(registry)
  if (!found) {
    found = build(registry)
    compiled.set(registry, found)
  }
  return found
}

function build(registry: SchemaRegistry): CompiledSchemas {
  // ajv is CommonJS and sizeable; `require` keeps it off the import path of everything that never validates.
  const { Ajv2020 } = createRequire(import.meta.url)('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js')
  const ajv = new Ajv2020({
    allErrors: true,
    verbose: true,
    strictNumbers: true,
    // Subschemas are compiled alone to explain a failed branch; type-free ones such as {pattern} are fine.
    strictTypes: false,
    // A oneOf branch of the form {required: [name]} names a key defined beside it, which is the point.
    strictRequired: false,
    // The shipped schemas are fixed (a test checks them against the 2020-12 meta-schema); checking them
    // again on every start would compile the meta-schema too, ~200 ms.
    validateSchema: false,
  })
  ajv.addKeyword({ keyword: 'errorMessage', schemaType: 'string' })
  const locations = new Map<unknown, Location>()
  for (const [document, schema] of Object.entries(registry)) {
    ajv.addSchema(schema, document)
    index(schema, document, '', locations)
  }
  const resolve = (ref: string, from: JsonSchema): JsonSchema | boolean => {
    const [file, pointer = ''] = ref.split('#')
    const document = file ? file.replace(/^\.\//, '') : locations.get(from)!.document
    let node: unknown = registry[document]
    for (const part of pointer.split('/').filter(Boolean)) node = (node as Record<string, unknown> | undefined)?.[unescapePointer(part)]
    if (node === undefined) throw new Error(`Failed to resolve schema reference "${ref}"`)
    return node as JsonSchema | boolean
  }
  const reached = new WeakMap<object, ReadonlySet<unknown>>()
  return {
    validator(schema) {
      const { document, pointer } = locations.get(schema)!
      return ajv.getSchema(pointer ? `${document}#${pointer}` : document)!
    },
    resolve,
    reach(schema) {
      if (typeof schema === 'boolean') return new Set()
      let found = reached.get(schema)
      if (!found) {
        found = collect(schema, resolve)
        reached.set(schema, found)
      }
      return found
    },
  }
}

/** Records where each object of a schema document sits, as the URI fragment ajv resolves. */
function index(node: unknown, document: string, pointer: string, into: Map<unknown, Location>): void {
  if (typeof node !== 'object' || node === null) return
  into.set(node, { document, pointer })
  for (const [key, child] of Object.entries(node)) index(child, document, `${pointer}/${encodeURIComponent(key.replace(/~/g, '~0').replace(/\//g, '~1'))}`, into)
}

function unescapePointer(part: string): string {
  return decodeURIComponent(part).replace(/~1/g, '/').replace(/~0/g, '~')
}

function collect(root: JsonSchema, resolve: CompiledSchemas['resolve']): ReadonlySet<unknown> {
  const seen = new Set<unknown>()
  const pending: unknown[] = [root]
  while (pending.length > 0) {
    const node = pending.pop()
    if (typeof node !== 'object' || node === null || seen.has(node)) continue
    seen.add(node)
    for (const [key, child] of Object.entries(node)) {
      if (key === '$ref' && typeof child === 'string') pending.push(resolve(child, node as JsonSchema))
      else if (key !== 'enum' && key !== 'const') pending.push(child)
    }
  }
  return seen
}
