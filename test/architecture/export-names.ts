import ts from 'typescript'

/**
 * Every name two modules export for different declarations, as `name: file, file`. A re-export (through an
 * `index.ts` or otherwise) resolves to the declaration it names, so it is the same job, not a second one.
 */
export function exportNameClashes(files: string[], root: string): string[] {
  const program = ts.createProgram(files, { allowImportingTsExtensions: true, noEmit: true, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, target: ts.ScriptTarget.ES2023, skipLibCheck: true, types: [] })
  const checker = program.getTypeChecker()
  const declared = new Map<string, Map<ts.Symbol, string>>()
  for (const file of files) {
    const source = program.getSourceFile(file)
    const module = source && checker.getSymbolAtLocation(source)
    if (!module) continue
    for (const exported of checker.getExportsOfModule(module)) {
      if (exported.name === 'default') continue
      const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported
      const where = symbol.declarations?.[0]?.getSourceFile().fileName ?? file
      const owners = declared.get(exported.name) ?? new Map<ts.Symbol, string>()
      owners.set(symbol, where.startsWith(root) ? where.slice(root.length + 1) : where)
      declared.set(exported.name, owners)
    }
  }
  return [...declared]
    .filter(([, owners]) => owners.size > 1)
    .map(([name, owners]) => `${name}: ${[...new Set(owners.values())].sort().join(', ')}`)
    .sort()
}
