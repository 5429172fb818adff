// The registry's page: organizations, team tokens, modules, and every version with its deprecation.
import { allFields, el, note, part, show, table, time, visible } from './dom.js'

function deprecation(version) {
  const { deprecation } = version
  if (!deprecation) return el('span', { className: 'none', text: 'not deprecated' })
  return el('div', { className: 'deprecated' },
    el('strong', { text: 'deprecated' }), ': ', visible(deprecation.reason ?? ''),
    ...(deprecation.link ? [el('br'), visible(deprecation.link)] : []),
  )
}

const revocation = (version) => (version.revocation.status === 'revoked' ? el('span', {}, el('strong', { text: 'revoked' }), ': ', visible(version.revocation.message ?? '')) : el('span', { className: 'none', text: 'unrevoked' }))

export function renderRegistry(registry) {
  const organizations = registry.organizations.map((org) => [visible(org.name), time(org['created-at'])])
  const tokens = registry.tokens.map((token) => [visible(token.token), show(token.organizations), time(token['created-at'])])
  const modules = registry.modules.map((module) => {
    const name = `${module.namespace}/${module.name}/${module.provider}`
    return [el('span', {}, visible(name), allFields(module, `module ${name}`)), module.status, show(module.description), String(module.downloads), time(module['updated-at'])]
  })
  // Sorted by module then version as written; the key columns (module, version, deprecation) come first.
  const versions = [...registry.versions].sort((a, b) => a.module.localeCompare(b.module) || a.version.localeCompare(b.version, 'en', { numeric: true }))
  const versionRows = versions.map((version) => {
    const name = `${version.module} ${version.version}`
    return [el('span', {}, visible(name), allFields(version, `version ${name}`)), deprecation(version), version.status, revocation(version), time(version['created-at'])]
  })
  return [
    part('registry-versions', 'Module versions', 3, table('Module versions and their deprecation', ['module version', 'deprecation', 'status', 'revocation', 'created-at'], versionRows, 'No module versions.')),
    part('registry-modules', 'Modules', 3, table('Registry modules', ['module', 'status', 'description', 'downloads', 'updated-at'], modules, 'No modules.')),
    part('registry-organizations', 'Organizations', 3, table('Organizations', ['name', 'created-at'], organizations, 'No organizations.')),
    part('registry-tokens', 'Team tokens', 3, registry.tokens.length > 0 ? table('Team tokens', ['token', 'organizations', 'created-at'], tokens, '') : note('No team tokens.')),
  ]
}
