import type { ModuleContents, ModuleSource, ProviderDependency } from '../glossary.ts'
import { hclValueToJson, scanHcl, type HclBody, type HclValue } from './hcl-scanner.ts'

const README_NAMES = ['README.md', 'readme.md', 'Readme.md', 'README']

/**
 * What the registry shows about a module, read from its files (path → text): the root directory,
 * `modules/<name>/` submodules and `examples/<name>/` examples.
 */
export function moduleContentsFromFiles(files: ReadonlyMap<string, string>): ModuleContents {
  const dirs = new Map<string, Map<string, string>>()
  for (const [path, text] of files) {
    const slash = path.lastIndexOf('/')
    const dir = slash === -1 ? '' : path.slice(0, slash)
    if (dir !== '' && !/^(modules|examples)\/[^/]+$/.test(dir)) continue
    let entries = dirs.get(dir)
    if (!entries) dirs.set(dir, (entries = new Map()))
    entries.set(path.slice(slash + 1), text)
  }
  const nested = [...dirs.keys()].filter((d) => d !== '').sort()
  return {
    root: sourceOf('', dirs.get('') ?? new Map()),
    submodules: nested.filter((d) => d.startsWith('modules/')).map((d) => sourceOf(d, dirs.get(d)!)),
    examples: nested.filter((d) => d.startsWith('examples/')).map((d) => sourceOf(d, dirs.get(d)!)),
  }
}

/** A directory with no Terraform in it (also what a version with no parsed contents shows). */
export function emptyModuleSource(path = '', readme = ''): ModuleSource {
  return { path, readme, empty: true, inputs: [], outputs: [], dependencies: [], providerDependencies: [], resources: [] }
}

/** One directory: `.tf` files scanned in name order, plus its README. */
function sourceOf(path: string, files: ReadonlyMap<string, string>): ModuleSource {
  const source = emptyModuleSource(path, README_NAMES.map((n) => files.get(n)).find((t) => t !== undefined) ?? '')
  const explicit: ProviderDependency[] = []
  const implied = new Set<string>()
  for (const name of [...files.keys()].filter((n) => n.endsWith('.tf')).sort()) {
    source.empty = false
    collect(scanHcl(files.get(name)!), source, explicit, implied)
  }
  const named = new Set(explicit.map((p) => p.name))
  source.providerDependencies = [
    ...explicit,
    ...[...implied].filter((n) => !named.has(n)).map((n) => ({ name: n, namespace: 'hashicorp', source: `hashicorp/${n}`, version: '' })),
  ]
  return source
}

function text(value: HclValue | undefined): string {
  if (value === undefined) return ''
  return value.kind === 'string' ? value.value : value.raw
}

function collect(body: HclBody, source: ModuleSource, explicit: ProviderDependency[], implied: Set<string>): void {
  for (const block of body.blocks) {
    const [first, second] = block.labels
    const attrs = block.body.attributes
    if (block.type === 'variable' && first !== undefined) {
      const fallback = attrs.get('default')
      source.inputs.push({
        name: first,
        type: attrs.get('type')?.raw ?? '',
        description: text(attrs.get('description')),
        default: fallback === undefined ? '' : (hclValueToJson(fallback) ?? fallback.raw),
        required: fallback === undefined,
      })
    } else if (block.type === 'output' && first !== undefined) {
      source.outputs.push({ name: first, description: text(attrs.get('description')) })
    } else if (block.type === 'resource' && first !== undefined && second !== undefined) {
      source.resources.push({ name: second, type: first })
      implied.add(first.split('_')[0]!)
    } else if (block.type === 'data' && first !== undefined) {
      implied.add(first.split('_')[0]!)
    } else if (block.type === 'module' && first !== undefined) {
      source.dependencies.push({ name: first, source: text(attrs.get('source')), version: text(attrs.get('version')) })
    } else if (block.type === 'provider' && first !== undefined) {
      implied.add(first)
    } else if (block.type === 'terraform') {
      for (const inner of block.body.blocks) {
        if (inner.type !== 'required_providers') continue
        for (const [name, value] of inner.body.attributes) explicit.push(requiredProvider(name, value))
      }
    }
  }
}

function requiredProvider(name: string, value: HclValue): ProviderDependency {
  if (value.kind !== 'object') return { name, namespace: 'hashicorp', source: `hashicorp/${name}`, version: text(value) }
  const field = (key: string) => text(value.entries.find(([k]) => k === key)?.[1])
  const address = field('source')
  const parts = address.split('/')
  const namespace = parts.length >= 2 ? parts[parts.length - 2]! : 'hashicorp'
  return { name, namespace, source: address || `hashicorp/${name}`, version: field('version') }
}
