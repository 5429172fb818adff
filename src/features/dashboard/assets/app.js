// The doppel dashboard: plain DOM over the control API. One load fetches everything, then every page is
// drawn at once; the address's fragment (#journal, #auth, #journal/<id>, …) says which page shows.
import { accessKeys, accounts, authMounts, registry } from './api-shape.js'
import { renderAuth } from './auth-view.js'
import { renderCloud } from './cloud-view.js'
import { ApiError, api } from './control-api.js'
import { renderClock, renderFaults, renderTenants } from './control-view.js'
import { $, setNow } from './dom.js'
import { renderJournalEntry, renderJournalList } from './journal-view.js'
import { renderRegistry } from './registry-view.js'

const PAGES = ['journal', 'auth', 'registry', 'cloud', 'control']
const tenant = /\/t\/([a-z0-9-]+)\/_doppel\/ui\/$/.exec(location.pathname)

let journal = { entries: [], total: 0, limit: 0 }

const announce = (message) => {
  $('status').textContent = message
}

/** Tenants are listed by the root instance only; elsewhere the page does not ask (a 404 is a console error). */
async function tenants() {
  if (tenant) return null
  try {
    return await api('tenants')
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null
    throw error
  }
}

/** The page and entry the fragment names; anything else (such as the skip link's #main) keeps the page. */
function route() {
  const [page, id] = location.hash.slice(1).split('/')
  return PAGES.includes(page) ? { page, id } : undefined
}

let current = { page: 'journal' }

/** A table's box is a tab stop (to scroll it by keyboard) only while it is wider than the window. */
function scrollStops() {
  for (const box of document.querySelectorAll('.scroll')) box.tabIndex = box.scrollWidth > box.clientWidth ? 0 : -1
}

function show({ focus }) {
  current = route() ?? current
  for (const name of PAGES) $(`page-${name}`).hidden = name !== current.page
  for (const link of document.querySelectorAll('nav a')) {
    if (link.dataset.page === current.page) link.setAttribute('aria-current', 'page')
    else link.removeAttribute('aria-current')
  }
  const where = tenant ? `doppel: tenant ${tenant[1]}` : 'doppel dashboard'
  document.title = `${$(`${current.page}-title`).firstChild.textContent.trim()} · ${where}`
  const entry = current.page === 'journal' && current.id !== undefined
  $('journal-filters').hidden = entry
  $('journal-list').hidden = entry
  $('journal-entry').hidden = !entry
  if (entry) $('journal-entry').replaceChildren(...renderJournalEntry(journal, current.id))
  scrollStops()
  // After a choice by the user, focus moves to what was opened, so a screen reader reads it next.
  if (focus) (entry ? document.getElementById('entry-title') : $(`${current.page}-title`))?.focus()
}

/**
 * What a redraw would lose: the focused control and the opened "All fields". Returns the function that
 * puts them back, so a refresh (every 2 s, if asked) does not move a keyboard user or close what they read.
 */
function keepPlace() {
  const active = document.activeElement
  const focusKey = active?.id ? `#${CSS.escape(active.id)}` : active?.getAttribute('href') ? `a[href="${CSS.escape(active.getAttribute('href'))}"]` : undefined
  const opened = [...document.querySelectorAll('details[open] > summary')].map((summary) => summary.getAttribute('aria-label'))
  return () => {
    for (const summary of document.querySelectorAll('details > summary')) if (opened.includes(summary.getAttribute('aria-label'))) summary.parentElement.open = true
    if (focusKey && !document.contains(active)) document.querySelector(focusKey)?.focus()
  }
}

async function refresh() {
  try {
    const [state, entries, clock, faults, instances, principals, listing] = await Promise.all([
      api('state'),
      api('journal'),
      api('clock'),
      api('faults'),
      api('cloud/instances'),
      api('cloud/principals'),
      tenants(),
    ])
    const kept = keepPlace()
    setNow(clock.now)
    journal = entries
    renderJournalList(journal)
    $('auth-body').replaceChildren(...renderAuth(authMounts(state, Date.parse(clock.now)), journal))
    $('registry-body').replaceChildren(...renderRegistry(registry(state)))
    $('cloud-body').replaceChildren(...renderCloud({ instances: instances.instances, principals: principals.principals, keys: accessKeys(state), accounts: accounts(state) }))
    renderClock(clock)
    renderFaults(faults.faults, (fault) => act(`Removed ${fault.id}`, () => api(`faults/${encodeURIComponent(fault.id)}`, { method: 'DELETE' }), 'faults-error'))
    renderTenants(listing, (dropped) => act(`Dropped tenant ${dropped.id}`, () => api(`tenants/${dropped.id}`, { method: 'DELETE' })))
    show({ focus: false })
    kept()
    announce(`Updated at ${clock.now} (emulator time)`)
  } catch (error) {
    announce(`Could not load: ${error.message}`)
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
// The filters act as you type; Enter in the path box must not submit the form.
onSubmit('journal-filters', () => renderJournalList(journal))
for (const id of ['journal-path', 'journal-status', 'journal-service']) $(id).addEventListener('input', () => renderJournalList(journal))
$('journal-clear').addEventListener('click', () => act('Journal cleared', () => api('journal', { method: 'DELETE' })))
$('reset').addEventListener('click', () => act('Emulator reset to its seeded start', () => api('reset', { method: 'POST' })))
$('refresh').addEventListener('click', () => refresh())
$('skip').addEventListener('click', (event) => {
  event.preventDefault()
  $('main').focus()
})
window.addEventListener('hashchange', () => show({ focus: true }))
window.addEventListener('resize', scrollStops)

let timer
$('auto-refresh').addEventListener('change', (event) => {
  clearInterval(timer)
  if (event.currentTarget.checked) timer = setInterval(refresh, 2000)
})

$('where').textContent = tenant ? `tenant ${tenant[1]}` : '(root)'
show({ focus: false })
void refresh()
