// The doppel dashboard: plain DOM over the control API, same-origin. Every URL is relative to this page
// (…/_doppel/ui/), so the page works at the root and inside a tenant (/t/<name>/_doppel/ui/) alike.
// Text goes in with textContent only: stored records hold whatever clients sent.

const CONTROL = new URL('../', location.href)
const MAX_ROWS = 200
const MAX_TEXT = 160
const tenant = /\/t\/([a-z0-9-]+)\/_doppel\/ui\/$/.exec(location.pathname)
const STATUS_WORDS = { 0: 'dropped', 2: 'success', 3: 'redirect', 4: 'client error', 5: 'server error' }

const $ = (id) => document.getElementById(id)

// Beyond loopback the control API wants a management token: open the page as …/_doppel/ui/#token=<token>.
// It is kept for this tab only and taken out of the address bar.
const TOKEN_KEY = 'doppel-control-token'
const fromFragment = /(?:^#|&)token=([^&]+)/.exec(location.hash)
if (fromFragment) {
  sessionStorage.setItem(TOKEN_KEY, decodeURIComponent(fromFragment[1]))
  history.replaceState(null, '', location.pathname + location.search)
}
const token = sessionStorage.getItem(TOKEN_KEY)

class ApiError extends Error {}

/** One control API call; JSON in and out. Writes always say `Content-Type: application/json`. */
async function api(path, { method = 'GET', json, text } = {}) {
  const headers = { Accept: 'application/json' }
  if (token) headers.Authorization = `Bearer ${token}`
  let body
  if (json !== undefined) body = JSON.stringify(json)
  else if (text !== undefined) body = text
  if (body !== undefined || method !== 'GET') headers['Content-Type'] = 'application/json'
  const response = await fetch(new URL(path, CONTROL), { method, headers, body, cache: 'no-store', credentials: 'same-origin' })
  const raw = await response.text()
  let data = null
  try {
    data = raw ? JSON.parse(raw) : null
  } catch {
    data = null
  }
  if (!response.ok) {
    const message = Array.isArray(data?.errors) ? data.errors.join('; ') : raw || response.statusText
    const error = new ApiError(`${response.status}: ${message}`)
    error.status = response.status
    throw error
  }
  return data
}

function el(tag, props = {}, ...children) {
  const node = document.createElement(tag)
  for (const [key, value] of Object.entries(props)) {
    if (key === 'text') node.textContent = value
    else if (key === 'className') node.className = value
    else if (key.startsWith('on')) node.addEventListener(key.slice(2), value)
    else node.setAttribute(key, value)
  }
  for (const child of children) node.append(child)
  return node
}

function shortText(value) {
  if (value === null || value === undefined) return '—'
  const text = typeof value === 'object' ? JSON.stringify(value) : String(value)
  return text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT)}… (${text.length} characters)` : text
}

function announce(message) {
  $('status').textContent = message
}

function emptyRow(tbody, columns, message) {
  tbody.replaceChildren(el('tr', {}, el('td', { colspan: String(columns), className: 'empty', text: message })))
}

// --- stored records: generic, from the state snapshot ({collection: {key: record}}) -------------------

function serviceOf(collection) {
  return collection.split(/[.:]/)[0]
}

function recordsTable(name, records) {
  const entries = Object.entries(records)
  const columns = []
  for (const [, record] of entries.slice(0, MAX_ROWS)) {
    if (record && typeof record === 'object' && !Array.isArray(record)) {
      for (const key of Object.keys(record)) if (!columns.includes(key)) columns.push(key)
    }
  }
  const head = el('tr', {}, el('th', { scope: 'col', text: 'record key' }), ...columns.map((c) => el('th', { scope: 'col', text: c })))
  const rows = entries.slice(0, MAX_ROWS).map(([key, record]) => {
    const cells = columns.length === 0
      ? [el('td', { text: shortText(record) })]
      : columns.map((c) => el('td', { text: shortText(record?.[c]) }))
    return el('tr', {}, el('th', { scope: 'row', text: key }), ...cells)
  })
  const table = el('table', { className: 'records' }, el('caption', { className: 'visually-hidden', text: name }), el('thead', {}, head), el('tbody', {}, ...rows))
  // Wide collections scroll sideways in their own box, which the keyboard can reach and scroll too.
  const box = el('div', { className: 'scroll', tabindex: '0', role: 'region', 'aria-label': `${name}, scrollable` }, table)
  const more = entries.length > MAX_ROWS ? [el('p', { className: 'empty', text: `${entries.length - MAX_ROWS} more not shown` })] : []
  return [el('h4', { text: `${name} (${entries.length})` }), box, ...more]
}

function renderRecords(state) {
  const byService = new Map()
  for (const [name, records] of Object.entries(state ?? {}).sort(([a], [b]) => a.localeCompare(b))) {
    if (Object.keys(records).length === 0) continue
    const service = serviceOf(name)
    if (!byService.has(service)) byService.set(service, [])
    byService.get(service).push([name, records])
  }
  const body = $('records-body')
  if (byService.size === 0) {
    body.replaceChildren(el('p', { className: 'empty', text: 'Nothing stored yet.' }))
    return
  }
  const parts = []
  for (const [service, collections] of byService) {
    parts.push(el('h3', { text: service }))
    for (const [name, records] of collections) parts.push(...recordsTable(name, records))
  }
  body.replaceChildren(...parts)
}

// --- journal -------------------------------------------------------------------------------------------

let journal = []

function statusBadge(status) {
  const kind = status === 0 ? 0 : Math.floor(status / 100)
  const label = status === 0 ? 'dropped' : `${status} ${STATUS_WORDS[kind] ?? ''}`.trim()
  return el('span', { className: `status status-${kind}`, text: label })
}

function renderJournal() {
  const pathFilter = $('journal-path').value.trim()
  const statusFilter = $('journal-status').value
  const hideControl = $('journal-hide-control').checked
  const shown = []
  for (let i = journal.length - 1; i >= 0; i--) {
    const entry = journal[i]
    const url = new URL(entry.url)
    const path = url.pathname + url.search
    if (hideControl && entry.service === 'control') continue
    if (pathFilter && !path.includes(pathFilter)) continue
    if (statusFilter !== '' && String(entry.status === 0 ? 0 : Math.floor(entry.status / 100)) !== statusFilter) continue
    shown.push(el('tr', {},
      el('td', { text: String(entry.id) }),
      el('td', { text: entry.time }),
      el('td', { text: entry.service }),
      el('td', { text: `${entry.method} ${path}` }),
      el('td', {}, statusBadge(entry.status)),
      el('td', { text: String(entry.durationMs) }),
    ))
    if (shown.length >= MAX_ROWS) break
  }
  if (shown.length === 0) emptyRow($('journal-rows'), 6, journal.length === 0 ? 'No requests yet.' : 'No request matches the filters.')
  else $('journal-rows').replaceChildren(...shown)
}

// --- clock, faults, tenants ------------------------------------------------------------------------------

function renderClock(clock) {
  $('clock-now').textContent = clock.now
  $('clock-mode').textContent = clock.frozen ? '(frozen: moves only when told)' : '(running)'
}

function faultEffect(fault) {
  if (fault.status !== undefined) return `status ${fault.status}`
  if (fault.latency_ms !== undefined) return `latency ${fault.latency_ms} ms`
  return 'drop connection'
}

function renderFaults(faults) {
  if (faults.length === 0) {
    emptyRow($('fault-rows'), 7, 'No faults armed.')
    return
  }
  $('fault-rows').replaceChildren(...faults.map((fault) => el('tr', {},
    el('td', { text: fault.id }),
    el('td', { text: fault.method ?? 'any' }),
    el('td', { text: fault.path }),
    el('td', { text: faultEffect(fault) }),
    el('td', { text: fault.remaining === undefined ? 'until removed' : String(fault.remaining) }),
    el('td', { text: String(fault.hits) }),
    el('td', {}, el('button', { type: 'button', 'aria-label': `Remove fault ${fault.id}`, text: 'Remove', onclick: () => act(`Removed ${fault.id}`, () => api(`faults/${encodeURIComponent(fault.id)}`, { method: 'DELETE' }), 'faults-error') })),
  )))
}

function renderTenants(listing) {
  $('tenants').hidden = false
  $('tenants-link').hidden = false
  $('tenants-count').textContent = `(${listing.tenants.length} of at most ${listing.max_tenants}; idle ones go after ${listing.idle_timeout_seconds} s)`
  if (listing.tenants.length === 0) {
    emptyRow($('tenant-rows'), 5, 'No tenants yet: send a request under /t/<name>/ to create one.')
    return
  }
  $('tenant-rows').replaceChildren(...listing.tenants.map((tenant) => el('tr', {},
    el('td', {}, el('a', { href: new URL(`../t/${tenant.id}/_doppel/ui/`, CONTROL).pathname, text: tenant.id })),
    el('td', { text: tenant.created_at }),
    el('td', { text: tenant.last_used_at }),
    el('td', { text: String(tenant.requests) }),
    el('td', {}, el('button', { type: 'button', 'aria-label': `Drop tenant ${tenant.id}`, text: 'Drop', onclick: () => act(`Dropped tenant ${tenant.id}`, () => api(`tenants/${tenant.id}`, { method: 'DELETE' })) })),
  )))
}

// --- loading and actions ------------------------------------------------------------------------------------

async function refresh() {
  try {
    const [state, entries, clock, faults] = await Promise.all([api('state'), api('journal'), api('clock'), api('faults')])
    renderRecords(state)
    journal = entries.entries
    $('journal-count').textContent = `(${entries.entries.length} kept of ${entries.total} seen)`
    renderJournal()
    renderClock(clock)
    renderFaults(faults.faults)
    await refreshTenants()
    announce(`Updated at ${new Date().toLocaleTimeString()}`)
  } catch (error) {
    announce(`Could not load: ${error.message}`)
  }
}

async function refreshTenants() {
  // Tenants are listed by the root instance only; a tenant's page does not ask (a 404 is a console error).
  if (tenant) return
  try {
    renderTenants(await api('tenants'))
  } catch (error) {
    if (!(error instanceof ApiError) || error.status !== 404) throw error
    $('tenants').hidden = true
    $('tenants-link').hidden = true
  }
}

/** Runs a write, shows its error next to the form (or in the status line), then reloads everything. */
async function act(done, call, errorId) {
  const errorNode = errorId ? $(errorId) : null
  if (errorNode) errorNode.textContent = ''
  try {
    await call()
    await refresh()
    announce(done)
    return true
  } catch (error) {
    if (errorNode) errorNode.textContent = error.message
    else announce(`Failed: ${error.message}`)
    return false
  }
}

function onSubmit(id, handler) {
  $(id).addEventListener('submit', (event) => {
    event.preventDefault()
    void handler(event.currentTarget)
  })
}

onSubmit('clock-advance', async (form) => {
  if (await act('Clock advanced', () => api('clock', { method: 'POST', json: { advance: $('advance-by').value.trim() } }), 'clock-error')) form.reset()
})
onSubmit('clock-set', async (form) => {
  if (await act('Clock set', () => api('clock', { method: 'POST', json: { set: $('set-to').value.trim() } }), 'clock-error')) form.reset()
})
onSubmit('fault-add', async () => {
  const kind = $('fault-kind').value
  const fault = { path: $('fault-path').value.trim() }
  if ($('fault-method').value) fault.method = $('fault-method').value
  fault[kind] = kind === 'drop' ? true : Number($('fault-value').value)
  if ($('fault-times').value !== '') fault.times = Number($('fault-times').value)
  if (await act('Fault added', () => api('faults', { method: 'POST', json: fault }), 'faults-error')) $('fault-path').value = ''
})
$('fault-kind').addEventListener('change', () => {
  const kind = $('fault-kind').value
  $('fault-value').disabled = kind === 'drop'
  if (kind === 'latency_ms' && $('fault-value').value === '503') $('fault-value').value = '1000'
})
onSubmit('fixtures-upload', async (form) => {
  const file = $('fixtures-file').files[0]
  const text = file ? await file.text() : $('fixtures-text').value
  if (text.trim() === '') {
    $('fixtures-error').textContent = 'Choose a file or paste a fixture first.'
    return
  }
  const name = encodeURIComponent(file ? file.name : 'pasted')
  if (await act('Fixtures loaded', () => api(`fixtures?file=${name}`, { method: 'POST', text }), 'fixtures-error')) form.reset()
})
$('journal-clear').addEventListener('click', () => act('Journal cleared', () => api('journal', { method: 'DELETE' })))
$('reset').addEventListener('click', () => act('Emulator reset to its seeded start', () => api('reset', { method: 'POST' })))
$('refresh').addEventListener('click', () => refresh())
for (const id of ['journal-path', 'journal-status', 'journal-hide-control']) $(id).addEventListener('input', renderJournal)

let timer
$('auto-refresh').addEventListener('change', (event) => {
  clearInterval(timer)
  if (event.currentTarget.checked) timer = setInterval(refresh, 2000)
})

$('where').textContent = tenant ? `tenant ${tenant[1]}` : '(root)'
document.title = tenant ? `doppel: tenant ${tenant[1]}` : 'doppel dashboard'
void refresh()
