import ts from 'typescript'

/**
 * The path and host pieces doppel's URLs are made of, each with the modules that own it (a path relative
 * to `src/`, or a folder ending in `/`). A path piece counts where a path starts: at the start of a
 * literal or after a character no path holds (`/api/registry/v1/` is the registry's, not the auth method's `/v1/`).
 */
const OWNED_PIECES: readonly { piece: string; pattern: RegExp; owners: readonly string[] }[] = [
  { piece: '/v1/', pattern: /(?:^|[^\w.~%-])\/v1\//, owners: ['services/cloud-auth/urls.ts'] },
  { piece: '/_doppel/', pattern: /(?:^|[^\w.~%-])\/_doppel\//, owners: ['services/control/urls.ts', 'services/fake-cloud/urls.ts', 'services/registry/urls.ts'] },
  { piece: '/api/', pattern: /(?:^|[^\w.~%-])\/api\//, owners: ['services/registry/urls.ts'] },
  { piece: '/t/', pattern: /(?:^|[^\w.~%-])\/t\//, owners: ['features/tenants/tenant-name.ts'] },
  // AWS's names are the fake cloud's: the hosts it answers, its DNS names and XML namespaces.
  { piece: 'amazonaws.com', pattern: /amazonaws\.com/, owners: ['services/fake-cloud/'] },
]

export interface PathLiteral {
  piece: string
  line: number
  text: string
}

const isModuleSpecifier = (node: ts.Node) =>
  ts.isImportDeclaration(node.parent) ||
  ts.isExportDeclaration(node.parent) ||
  ts.isExternalModuleReference(node.parent) ||
  ts.isLiteralTypeNode(node.parent) ||
  (ts.isCallExpression(node.parent) && node.parent.expression.kind === ts.SyntaxKind.ImportKeyword)

/**
 * A command's help (a `…_USAGE` constant, or a flag table row's `help`) is its documentation, and
 * documentation names paths as users type them.
 */
const isHelpText = (node: ts.Node) =>
  (ts.isVariableDeclaration(node.parent) && ts.isIdentifier(node.parent.name) && node.parent.name.text.endsWith('_USAGE')) ||
  (ts.isPropertyAssignment(node.parent) && ts.isIdentifier(node.parent.name) && node.parent.name.text === 'help')

/** The text of every string, template piece and regular expression in a module, but module specifiers and help (comments are not code). */
function literals(source: string): { text: string; line: number }[] {
  const file = ts.createSourceFile('module.ts', source, ts.ScriptTarget.Latest, true)
  const found: { text: string; line: number }[] = []
  const visit = (node: ts.Node): void => {
    let text: string | undefined
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateHead(node) || ts.isTemplateMiddle(node) || ts.isTemplateTail(node)) {
      if (!isModuleSpecifier(node) && !isHelpText(node) && !(ts.isTemplateHead(node) && isHelpText(node.parent))) text = node.text
    } else if (ts.isRegularExpressionLiteral(node)) {
      text = node.text.replaceAll('\\/', '/').replaceAll('\\.', '.')
    }
    if (text !== undefined) found.push({ text, line: file.getLineAndCharacterOfPosition(node.getStart()).line + 1 })
    ts.forEachChild(node, visit)
  }
  visit(file)
  return found
}

const owns = (owners: readonly string[], path: string) => owners.some((owner) => (owner.endsWith('/') ? path.startsWith(owner) : path === owner))

/** The owned pieces a module at `path` (relative to `src/`) writes though it does not own them. */
export function strayPathLiterals(path: string, source: string): PathLiteral[] {
  const stray: PathLiteral[] = []
  for (const { text, line } of literals(source)) {
    for (const { piece, pattern, owners } of OWNED_PIECES) {
      if (pattern.test(text) && !owns(owners, path)) stray.push({ piece, line, text })
    }
  }
  return stray
}
