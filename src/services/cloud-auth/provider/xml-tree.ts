/**
 * A small reader for the provider's query-protocol XML answers (a size-capped body): elements by local name
 * (namespace prefixes dropped), text with the five XML entities and character references decoded. One
 * left-to-right pass; no DTDs, no attributes kept.
 */
export interface XmlElement {
  name: string
  text: string
  children: XmlElement[]
}

const TOKEN = /<!--[\s\S]*?-->|<\?[\s\S]*?\?>|<!\[CDATA\[([\s\S]*?)\]\]>|<!DOCTYPE[^>]*>|<(\/?)([\w.:-]+)[^>]*?(\/?)>|([^<]+)/g
const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" }

/** The document's root element, or undefined when the text is not well-formed enough to read. */
export function parseXml(text: string): XmlElement | undefined {
  const root: XmlElement = { name: '', text: '', children: [] }
  const stack = [root]
  for (const match of text.matchAll(TOKEN)) {
    const [, cdata, closing, name, selfClosing, chars] = match
    const top = stack[stack.length - 1]!
    if (chars !== undefined || cdata !== undefined) top.text += cdata ?? decode(chars!)
    else if (name === undefined) continue
    else if (closing) {
      if (stack.length === 1 || top.name !== localName(name)) return undefined
      stack.pop()
    } else {
      const element: XmlElement = { name: localName(name), text: '', children: [] }
      top.children.push(element)
      if (!selfClosing) stack.push(element)
    }
  }
  return stack.length === 1 && root.children.length === 1 ? root.children[0] : undefined
}

/** The first descendant along `path` (local names), or undefined. */
export function child(element: XmlElement | undefined, ...path: string[]): XmlElement | undefined {
  let current = element
  for (const name of path) current = current?.children.find((c) => c.name === name)
  return current
}

/** The trimmed text at `path`, or undefined when the element is missing. */
export function childText(element: XmlElement | undefined, ...path: string[]): string | undefined {
  return child(element, ...path)?.text.trim()
}

/** The children named `name` of the element at `path` (e.g. the `member`s of a list). */
export function children(element: XmlElement | undefined, name: string, ...path: string[]): XmlElement[] {
  return child(element, ...path)?.children.filter((c) => c.name === name) ?? []
}

function localName(name: string): string {
  return name.slice(name.indexOf(':') + 1)
}

function decode(text: string): string {
  return text.replace(/&(#x[0-9a-fA-F]{1,6}|#\d{1,7}|\w{2,4});/g, (whole, entity: string) => {
    if (!entity.startsWith('#')) return ENTITIES[entity] ?? whole
    const code = entity.startsWith('#x') ? parseInt(entity.slice(2), 16) : Number(entity.slice(1))
    return code <= 0x10ffff ? String.fromCodePoint(code) : whole
  })
}
