// The auth method's page: per mount, its configuration, roles, issued tokens, access and deny lists, and
// the recent logins from the journal with their outcome.
import { allFields, el, fields, note, part, seconds, show, table, time, visible } from './dom.js'
import { entryLink, pathOf, statusBadge } from './journal-view.js'

const LOGIN = /^\/v1\/auth\/([^/?]+)\/login(?:\/[^?]*)?(?:\?.*)?$/
const RECENT_LOGINS = 20

/** The role a login named: from the captured JSON body when the journal has it. */
function loginRole(entry) {
  let body = entry.request?.body
  if (typeof body === 'string') {
    try {
      body = JSON.parse(body)
    } catch {
      return undefined
    }
  }
  return typeof body?.role === 'string' ? body.role : undefined
}

function logins(journal, mount) {
  const rows = []
  for (let i = journal.entries.length - 1; i >= 0 && rows.length < RECENT_LOGINS; i--) {
    const entry = journal.entries[i]
    if (LOGIN.exec(pathOf(entry))?.[1] !== mount) continue
    const role = loginRole(entry)
    const outcome = entry.status === 200 ? 'logged in' : entry.explanation ? entry.explanation.rule : 'refused'
    rows.push([entryLink(entry), time(entry.time), role === undefined ? show(null) : visible(role), statusBadge(entry.status), visible(outcome)])
  }
  return table('Recent logins, newest first', ['Request', 'Time (emulator)', 'Role', 'Status', 'Outcome'], rows, 'No login in the journal.')
}

/** The bound_* constraints a role sets: the ones a login is checked against. */
function bounds(read) {
  const set = Object.entries(read).filter(([name, value]) => name.startsWith('bound_') && Array.isArray(value) && value.length > 0)
  if (set.length === 0) return el('span', { className: 'none', text: 'none' })
  return el('ul', { className: 'values' }, ...set.map(([name, value]) => el('li', {}, `${name}: `, visible(value.join(', ')))))
}

function config(mount) {
  const parts = []
  const identity = mount.config['config/identity']
  if (identity) parts.push(el('h5', { text: 'config/identity' }), fields(Object.entries(identity)))
  const client = mount.config['config/client']
  if (client) parts.push(el('h5', { text: 'config/client' }), fields(Object.entries(client)))
  for (const which of ['identity-accesslist', 'roletag-denylist']) {
    const tidy = mount.config[`config/tidy/${which}`]
    if (tidy) parts.push(el('h5', { text: `config/tidy/${which}` }), fields([['safety_buffer', seconds(tidy.safety_buffer)], ['disable_periodic_tidy', tidy.disable_periodic_tidy]]))
  }
  if (mount.certificates.length > 0) parts.push(table('config/certificate', ['cert_name', 'type'], mount.certificates.map((cert) => [visible(cert.cert_name), cert.type]), ''))
  if (mount.sts.length > 0) parts.push(table('config/sts', ['account_id', 'sts_role', 'external_id'], mount.sts.map((sts) => [sts.account_id, visible(sts.sts_role), show(sts.external_id)]), ''))
  return parts.length > 0 ? parts : [note('Nothing configured: every setting has its default.')]
}

function mountPart(mount, journal) {
  const id = `mount-${mount.path.replace(/[^a-z0-9-]/gi, '-')}`
  const roles = mount.roles.map(({ name, read }) => [
    el('span', {}, visible(name), allFields(read, `role ${name}`)),
    read.auth_type,
    bounds(read),
    show(read.token_policies),
    seconds(read.token_ttl),
    seconds(read.token_max_ttl),
  ])
  const tokens = mount.tokens.map((token) => [
    el('span', {}, visible(token.display_name), allFields(token, `token ${token.display_name}`)),
    show(token.policies),
    time(token.creation_time),
    time(token.expire_time),
    seconds(token.ttl),
    token.type,
    token.num_uses === 0 ? 'unlimited' : String(token.num_uses),
  ])
  const accessList = mount.accessList.map((entry) => [visible(entry.instance_id), visible(entry.role), time(entry.creation_time), time(entry.last_updated_time), time(entry.expiration_time)])
  const denyList = mount.denyList.map((entry) => [visible(entry.role_tag), time(entry.creation_time), time(entry.expiration_time)])
  return part(id, `Mount ${mount.path}`, 3,
    part(`${id}-logins`, 'Recent logins', 4, logins(journal, mount.path.slice('auth/'.length))),
    part(`${id}-roles`, 'Roles', 4, table('Roles', ['role', 'auth_type', 'bounds', 'token_policies', 'token_ttl', 'token_max_ttl'], roles, 'No roles.')),
    part(`${id}-tokens`, 'Tokens', 4, table('Tokens issued by logins', ['display_name', 'policies', 'creation_time', 'expire_time', 'ttl', 'type', 'num_uses'], tokens, 'No live tokens.')),
    part(`${id}-access`, 'Identity access list', 4, table('identity-accesslist', ['instance_id', 'role', 'creation_time', 'last_updated_time', 'expiration_time'], accessList, 'No instance has logged in with ec2.')),
    part(`${id}-deny`, 'Role tag deny list', 4, table('roletag-denylist', ['role_tag', 'creation_time', 'expiration_time'], denyList, 'No role tag is denied.')),
    part(`${id}-config`, 'Configuration', 4, ...config(mount)),
  )
}

export function renderAuth(mounts, journal) {
  if (mounts.length === 0) return [note('The auth method holds nothing yet: no mount has been used or loaded from fixtures.')]
  return mounts.map((mount) => mountPart(mount, journal))
}
