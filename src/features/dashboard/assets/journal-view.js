// The journal page: every request the emulator answered, newest first, filtered by service, status
// class and path; `#journal/<id>` opens one entry with its request, answer and, for a refusal, why.
import { $, el, fields, note, part, show, table, time, visible } from './dom.js'

const MAX_ROWS = 200
const STATUS_WORDS = { 0: 'dropped', 2: 'success', 3: 'redirect', 4: 'client error', 5: 'server error' }

const statusClass = (status) => (status === 0 ? 0 : Math.floor(status / 100))

export function statusBadge(status) {
  const kind = statusClass(status)
  const label = status === 0 ? 'dropped' : `${status} ${STATUS_WORDS[kind] ?? ''}`.trim()
  return el('span', { className: `status status-${kind}`, text: label })
}

/** Path and query as the client sent them (entries from before request capture carry only the URL). */
export function pathOf(entry) {
  if (typeof entry.request?.path === 'string') return entry.request.path
  const url = new URL(entry.url)
  return url.pathname + url.search
}

export const entryLink = (entry, text = `#${entry.id}`) => el('a', { href: `#journal/${entry.id}`, 'aria-label': `Request ${entry.id}: ${entry.method} ${pathOf(entry)}` }, text)

function matches(entry, { service, status, path }) {
  if (service === '' && entry.service === 'control') return false
  if (service !== '' && service !== '*' && entry.service !== service) return false
  if (status !== '' && String(statusClass(entry.status)) !== status) return false
  return path === '' || pathOf(entry).includes(path)
}

/** The list, filtered as the controls say, newest first. */
export function renderJournalList(journal) {
  const filter = { service: $('journal-service').value, status: $('journal-status').value, path: $('journal-path').value.trim() }
  const rows = []
  for (let i = journal.entries.length - 1; i >= 0 && rows.length < MAX_ROWS; i--) {
    const entry = journal.entries[i]
    if (!matches(entry, filter)) continue
    rows.push([
      entryLink(entry),
      time(entry.time),
      entry.service,
      el('span', { className: 'request' }, `${entry.method} `, visible(pathOf(entry))),
      statusBadge(entry.status),
      entry.explanation ? visible(entry.explanation.rule) : el('span', { className: 'none', text: '—' }),
      String(entry.durationMs),
    ])
  }
  const empty = journal.entries.length === 0 ? 'No requests yet.' : 'No request matches the filters.'
  $('journal-count').textContent = `(${journal.entries.length} kept of ${journal.total} seen; ${rows.length} shown)`
  $('journal-list').replaceChildren(table('Requests, newest first', ['Request', 'Time (emulator)', 'Service', 'Method and path', 'Status', 'Refused by', 'ms'], rows, empty))
}

/** Headers as the journal keeps them: an object, or a list of [name, value] pairs. */
function headerRows(headers) {
  const pairs = Array.isArray(headers) ? headers : Object.entries(headers ?? {})
  return pairs.map(([name, value]) => [visible(name), show(value)])
}

/** A body as sent: JSON pretty-printed, other text as is, invisible characters escaped. */
function bodyBlock(body, label) {
  if (body === undefined || body === null || body === '') return note('No body.')
  let text = body
  if (typeof body === 'string') {
    try {
      text = JSON.stringify(JSON.parse(body), null, 2)
    } catch {
      text = body
    }
  } else {
    text = JSON.stringify(body, null, 2)
  }
  return el('pre', { className: 'body', tabindex: '0', 'aria-label': label }, visible(text, { block: true }))
}

function message(side, label, bodyLimit) {
  if (!side) return [note(`This journal keeps no ${label.toLowerCase()} details for this entry.`)]
  const headers = headerRows(side.headers)
  return [
    table(`${label} headers`, ['Header', 'Value'], headers, 'No headers.'),
    el('h5', { text: `${label} body` }),
    bodyBlock(side.body, `${label} body`),
    ...(side.truncated ? [note(`The body was cut at the journal's limit${bodyLimit ? ` (${bodyLimit} bytes)` : ''}.`)] : []),
  ]
}

function explanation(entry) {
  const why = entry.explanation
  if (!why) return note(entry.status >= 400 ? 'The service gave no explanation for this answer.' : 'Not refused: nothing to explain.')
  const pairs = [['rule', why.rule], ['seen', why.seen]]
  if ('expected' in why) pairs.push(['expected', why.expected])
  if (why.hint !== undefined) pairs.push(['hint', why.hint])
  // Details may run to many lines (a SigV4 canonical request and string to sign): each in its own block.
  for (const [name, text] of Object.entries(why.details ?? {})) pairs.push([name, el('pre', { className: 'body', tabindex: '0', 'aria-label': name }, visible(text, { block: true }))])
  return el('div', { className: 'explanation' }, fields(pairs))
}

/** One entry: what was asked, what was answered and why. */
export function renderJournalEntry(journal, id) {
  const entry = journal.entries.find((candidate) => String(candidate.id) === id)
  const back = el('p', {}, el('a', { href: '#journal', text: '← All requests' }))
  if (!entry) return [back, note(`Request ${id} is no longer in the journal (it keeps the last ${journal.limit}).`)]
  const heading = el('h3', { id: 'entry-title', tabindex: '-1' }, `Request ${entry.id}: ${entry.method} `, visible(pathOf(entry)))
  return [
    back,
    el('article', { 'aria-labelledby': 'entry-title', className: 'entry' },
      heading,
      fields([
        ['time (emulator)', time(entry.time)],
        ['service', entry.service],
        ['status', statusBadge(entry.status)],
        ['duration', `${entry.durationMs} ms`],
        ['URL', visible(entry.url)],
      ]),
      part('entry-why', 'Explanation', 4, explanation(entry)),
      part('entry-request', 'Request', 4, ...message(entry.request, 'Request', journal.bodyLimit)),
      part('entry-response', 'Answer', 4, ...message(entry.response, 'Answer', journal.bodyLimit)),
    ),
  ]
}
