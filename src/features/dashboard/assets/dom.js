// DOM helpers shared by every view. Text goes in with textContent only: stored records hold whatever
// clients sent, so nothing here parses HTML.

export const $ = (id) => document.getElementById(id)

/** An element with properties (`text`, `className`, `on<event>`, else attributes) and children. */
export function el(tag, props = {}, ...children) {
  const node = document.createElement(tag)
  for (const [key, value] of Object.entries(props)) {
    if (value === undefined) continue
    if (key === 'text') node.textContent = value
    else if (key === 'className') node.className = value
    else if (key.startsWith('on')) node.addEventListener(key.slice(2), value)
    else node.setAttribute(key, value)
  }
  for (const child of children) if (child !== undefined && child !== null) node.append(child)
  return node
}

// Characters a reader cannot see or that move text around: C0/C1 controls, zero-width and bidi marks,
// line and paragraph separators, the byte-order mark. Multi-line bodies keep their newlines and tabs.
const INVISIBLE = /[\u0000-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u206f\ufeff]/g
const INVISIBLE_BLOCK = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u206f\ufeff]/g

const escapeOf = (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`

/**
 * Text with every invisible character shown as its `\uXXXX` escape, marked so that it reads apart from
 * the same six characters typed literally. `block` keeps newlines and tabs (bodies in a <pre>).
 */
export function visible(text, { block = false } = {}) {
  const string = String(text)
  const found = [...string.matchAll(block ? INVISIBLE_BLOCK : INVISIBLE)]
  if (found.length === 0) return document.createTextNode(string)
  const fragment = document.createDocumentFragment()
  let at = 0
  for (const match of found) {
    if (match.index > at) fragment.append(string.slice(at, match.index))
    const code = escapeOf(match[0])
    fragment.append(el('span', { className: 'escape', title: `invisible character U+${code.slice(2).toUpperCase()}`, text: code }))
    at = match.index + 1
  }
  if (at < string.length) fragment.append(string.slice(at))
  return fragment
}

/** The same, as a plain string (for accessible names and titles). */
export const visibleText = (text) => String(text).replace(INVISIBLE, escapeOf)

// --- times -------------------------------------------------------------------------------------------------

let nowMs = Date.now()

/** Relative hints count from the emulator clock, which may be frozen or far from the wall clock. */
export function setNow(iso) {
  const ms = Date.parse(iso)
  if (!Number.isNaN(ms)) nowMs = ms
}

const UNITS = [
  ['d', 86_400_000, 'day'],
  ['h', 3_600_000, 'h'],
  ['min', 60_000, 'min'],
  ['s', 1000, 's'],
]

/** "3 min ago", "in 2 h", "now": the largest unit that fits, rounded down. */
export function relative(ms) {
  const delta = ms - nowMs
  const size = Math.abs(delta)
  if (size < 1000) return 'now'
  const [, unit, word] = UNITS.find(([, unit]) => size >= unit)
  const count = Math.floor(size / unit)
  const label = word === 'day' ? `${count} day${count === 1 ? '' : 's'}` : `${count} ${word}`
  return delta < 0 ? `${label} ago` : `in ${label}`
}

/** An RFC 3339 time as the API gives it, with a hint relative to the emulator clock; `—` when unset. */
export function time(value) {
  if (value === null || value === undefined || value === '') return el('span', { className: 'none', text: '—' })
  const ms = Date.parse(value)
  if (Number.isNaN(ms)) return visible(value)
  return el('time', { datetime: new Date(ms).toISOString() }, value, el('span', { className: 'hint', text: ` (${relative(ms)})` }))
}

/** Seconds as the API gives them, with a readable length beside (`3600 (1 h)`). */
export function seconds(value) {
  if (typeof value !== 'number') return show(value)
  if (value === 0) return document.createTextNode('0')
  const [, unit, word] = UNITS.find(([, unit]) => value * 1000 >= unit) ?? UNITS.at(-1)
  const count = Math.round((value * 1000 / unit) * 10) / 10
  return el('span', {}, String(value), el('span', { className: 'hint', text: ` (${count} ${word === 'day' ? (count === 1 ? 'day' : 'days') : word})` }))
}

// --- values ------------------------------------------------------------------------------------------------

/** Any API value: lists as comma-separated items, objects as `key=value` pairs, nothing as `—`. */
export function show(value) {
  if (value === null || value === undefined || value === '') return el('span', { className: 'none', text: '—' })
  if (Array.isArray(value)) {
    if (value.length === 0) return el('span', { className: 'none', text: '[]' })
    const list = el('ul', { className: 'values' })
    for (const item of value) list.append(el('li', {}, typeof item === 'object' && item !== null ? visible(JSON.stringify(item)) : visible(item)))
    return list
  }
  if (typeof value === 'object') {
    const entries = Object.entries(value)
    if (entries.length === 0) return el('span', { className: 'none', text: '{}' })
    const list = el('ul', { className: 'values' })
    for (const [key, item] of entries) list.append(el('li', {}, visible(key), '=', typeof item === 'object' && item !== null ? visible(JSON.stringify(item)) : visible(item)))
    return list
  }
  return visible(value)
}

/** Fields as a definition list, in the order given; a value may be a node already. */
export function fields(pairs) {
  const list = el('dl', { className: 'fields' })
  for (const [name, value] of pairs) list.append(el('dt', { text: name }), el('dd', {}, value instanceof Node ? value : show(value)))
  return list
}

/** Every field of a record in API names, behind a disclosure: the table keeps only the key columns. */
export function allFields(record, label) {
  return el('details', { className: 'all-fields' }, el('summary', { text: 'All fields', 'aria-label': `All fields of ${visibleText(label)}` }), fields(Object.entries(record)))
}

const LONG_WORD = /\S{32}/
const ONE_WORD = /^\S{1,31}$/

/** The text a cell shows before any disclosure is opened. */
const shownText = (node) => [...node.childNodes].map((child) => (child.nodeName === 'DETAILS' ? '' : child.nodeType === Node.ELEMENT_NODE ? shownText(child) : child.textContent)).join('')

/** Long unbroken values (ARNs, tokens) may break anywhere; a short id (`i-0123…`, `us-east-1`) stays whole. */
function fit(cell) {
  const text = shownText(cell)
  if (LONG_WORD.test(text)) cell.classList.add('long')
  else if (ONE_WORD.test(text)) cell.classList.add('word')
  return cell
}

/**
 * A table whose first column is the row's name: it stays in view (sticky) while the box scrolls, and
 * cells wrap, so the key columns of a wide table never leave a laptop screen.
 */
export function table(caption, columns, rows, empty) {
  const head = el('tr', {}, ...columns.map((name) => el('th', { scope: 'col', text: name })))
  const body = el('tbody')
  if (rows.length === 0) body.append(el('tr', {}, el('td', { colspan: String(columns.length), className: 'empty', text: empty })))
  for (const cells of rows) {
    const [first, ...rest] = cells
    body.append(el('tr', {}, fit(el('th', { scope: 'row' }, first)), ...rest.map((cell) => fit(el('td', {}, cell)))))
  }
  const node = el('table', { className: 'data' }, el('caption', { text: caption }), el('thead', {}, head), body)
  return el('div', { className: 'scroll', tabindex: '0', role: 'region', 'aria-label': caption }, node)
}

/** A titled part of a page: `<section>` with its heading at `level`. */
export function part(id, title, level, ...children) {
  return el('section', { 'aria-labelledby': `${id}-title`, className: 'part' }, el(`h${level}`, { id: `${id}-title`, text: title }), ...children)
}

export const note = (text) => el('p', { className: 'empty', text })
