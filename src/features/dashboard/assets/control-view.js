// The clock, faults and tenants of the control page (its forms are wired in app.js).
import { $, el, table, time } from './dom.js'
import { controlPath } from './control-api.js'

export function renderClock(clock) {
  $('clock-now').replaceChildren(clock.now)
  $('header-now').replaceChildren(clock.now)
  $('clock-mode').textContent = clock.frozen ? '(frozen: moves only when told)' : '(running)'
}

function faultEffect(fault) {
  if (fault.status !== undefined) return `status ${fault.status}`
  if (fault.latency_ms !== undefined) return `latency ${fault.latency_ms} ms`
  return 'drop connection'
}

export function renderFaults(faults, remove) {
  const rows = faults.map((fault) => [
    fault.id,
    fault.method ?? 'any',
    fault.path,
    faultEffect(fault),
    fault.remaining === undefined ? 'until removed' : String(fault.remaining),
    String(fault.hits),
    el('button', { type: 'button', 'aria-label': `Remove fault ${fault.id}`, text: 'Remove', onclick: () => remove(fault) }),
  ])
  $('fault-list').replaceChildren(table('Armed faults', ['Id', 'Method', 'Path', 'Effect', 'Left', 'Hits', 'Actions'], rows, 'No faults armed.'))
}

export function renderTenants(listing, drop) {
  $('tenants').hidden = listing === null
  if (listing === null) return
  $('tenants-count').textContent = `(${listing.tenants.length} of at most ${listing.max_tenants}; idle ones go after ${listing.idle_timeout_seconds} s)`
  const rows = listing.tenants.map((tenant) => [
    el('a', { href: controlPath(`../t/${tenant.id}/_doppel/ui/`), text: tenant.id }),
    time(tenant.created_at),
    time(tenant.last_used_at),
    String(tenant.requests),
    el('button', { type: 'button', 'aria-label': `Drop tenant ${tenant.id}`, text: 'Drop', onclick: () => drop(tenant) }),
  ])
  $('tenant-list').replaceChildren(table('Tenants of this server', ['Tenant', 'Created', 'Last used', 'Requests', 'Actions'], rows, 'No tenants yet: send a request under /t/<name>/ to create one.'))
}
