// sys/capabilities-self, sys/capabilities and sys/capabilities-accessor call by call against the real server
// and against `doppel serve --profile vault`: the default policy's rules on the paths it names, near them and
// beside them (exact paths, a trailing slash, the `*` prefixes, the `+` segment, the entity template), for a
// token with the default policy, one without it, one with an entity, a root token; the answers' shape; the
// refusals; and what a token without the default policy may do on the self routes. Not sent here: `sys/renew`
// and `sys/control-group/request`, which Vault's default policy grants and OpenBao's does not (doppel follows
// Vault); an entity's name, which doppel does not keep; a `token` given as a JSON number, which doppel reads as
// its text; a repeated key, which Vault 1.21's listener refuses and OpenBao's takes; a `namespace` field, which
// Vault's `-self` path knows and OpenBao's does not (a warning there).
import { expect } from 'vitest'
import { compareCallByCall, type Step } from './step-driver.ts'

const SELF = 'sys/capabilities-self'
const PATHS = [
  'auth/token/lookup-self',
  '/auth/token/lookup-self',
  '//auth/token/lookup-self',
  ' auth/token/lookup-self',
  'auth/token/lookup-self/',
  'auth/token/renew-self',
  'auth/token/revoke-self',
  SELF,
  'cubbyhole',
  'cubbyhole/',
  'cubbyhole/x/y',
  'cubbyholex',
  'sys/tools/hash',
  'sys/tools/hash/',
  'sys/tools/hash/sha2-256',
  'sys/tools/hashx',
  'identity/oidc/provider/p/authorize',
  'identity/oidc/provider//authorize',
  'identity/oidc/provider/p/authorize/x',
  'identity/oidc/provider/a/b/authorize',
  'sys/wrapping/wrap',
  'sys/wrapping/lookup',
  'sys/wrapping/unwrap',
  'sys/wrapping/rewrap',
  'sys/leases/renew',
  'sys/leases/renew/x',
  'sys/leases/lookup',
  'sys/internal/ui/resultant-acl',
  'sys/tools/random',
  'identity/mfa/method/totp/generate',
  'auth/cloud/role/x',
  'identity/entity/id/x',
  'identity/entity/id/',
  'identity/entity/id/{{identity.entity.id}}',
  'AUTH/TOKEN/LOOKUP-SELF',
  'auth//token/lookup-self',
]

const STEPS: Step[] = [
  ['POST', 'auth/token/create', { policies: ['dev'], ttl: '1h' }, undefined, 'dflt'],
  ['POST', 'auth/token/create', { policies: ['dev'], no_default_policy: true, ttl: '1h' }, undefined, 'nodef'],
  ['POST', 'auth/token/roles/capent', { allowed_entity_aliases: ['alice'], allowed_policies: ['dev'] }],
  ['POST', 'auth/token/create/capent', { entity_alias: 'alice', ttl: '1h', policies: ['dev'] }, undefined, 'ent'],
  ['POST', 'auth/token/create', { type: 'batch', policies: ['dev'], ttl: '1h' }, undefined, 'batch'],
  ...PATHS.map((path): Step => ['POST', SELF, { paths: [path] }, 'dflt']),
  ...PATHS.slice(0, 4).map((path): Step => ['POST', SELF, { paths: [path] }, 'nodef']),
  ...PATHS.slice(0, 6).map((path): Step => ['POST', SELF, { paths: [path] }]),
  // the entity's own path, by the template
  ...['identity/entity/id/<ent.entity>', 'identity/entity/id/<ent.entity>/', 'identity/entity/id/<ent.entity>x', 'identity/entity/id/', 'cubbyhole/a'].map((path): Step => ['POST', SELF, { paths: [path] }, 'ent']),
  ['POST', SELF, { paths: ['identity/entity/id/<ent.entity>'] }, 'dflt'],
  ['POST', SELF, { paths: ['auth/token/lookup-self', 'cubbyhole/x'] }, 'batch'],
  // shapes of the request and the answer
  ['POST', SELF, { paths: ['a', 'b'] }, 'dflt'],
  ['POST', SELF, { paths: 'auth/token/lookup-self,sys/leases/lookup' }, 'dflt'],
  ['POST', SELF, { paths: ' a , b ' }, 'dflt'],
  ['POST', SELF, { path: 'auth/token/lookup-self' }, 'dflt'],
  ['POST', SELF, { path: ['x'], paths: ['y'] }, 'dflt'],
  ['POST', SELF, { path: 'x', paths: [] }, 'dflt'],
  ['POST', SELF, { paths: ['a', 'a'] }, 'dflt'],
  ['POST', SELF, { paths: ['a,b'] }],
  ['POST', SELF, { paths: [1, true] }],
  ['POST', SELF, { paths: ['x'], bogus: 1, token: 'ignored' }, 'dflt'],
  ['POST', SELF, { paths: ['__proto__', 'constructor'] }],
  // refusals
  ['POST', SELF, {}, 'dflt'],
  ['POST', SELF, { paths: [] }, 'dflt'],
  ['POST', SELF, { paths: '' }, 'dflt'],
  ['POST', SELF, { paths: null }, 'dflt'],
  ['POST', SELF, { paths: ['a', ''] }, 'dflt'],
  ['POST', SELF, { paths: ['', 'a'] }],
  ['POST', SELF, { paths: [1, true, null] }],
  ['POST', SELF, { paths: { a: 1 } }, 'dflt'],
  ['POST', SELF, { paths: ['x'] }, 'nobody'],
  ['PUT', SELF, { paths: ['x'] }, 'dflt'],
  ['GET', SELF, undefined, 'dflt'],
  ['GET', SELF],
  ['DELETE', SELF],
  ['DELETE', SELF, undefined, 'dflt'],
  ['LIST', SELF],
  ['LIST', SELF, undefined, 'dflt'],
  ['POST', `${SELF}/`, { paths: ['x'] }, 'dflt'],
  // a token named by id or accessor: root only
  ['POST', 'sys/capabilities', { token: '<dflt>', paths: ['auth/token/lookup-self', 'cubbyhole/x'] }],
  ['POST', 'sys/capabilities', { token: '<nodef>', paths: ['auth/token/lookup-self'] }],
  ['POST', 'sys/capabilities', { token: '<ent>', path: 'identity/entity/id/<ent.entity>' }],
  ['POST', 'sys/capabilities', { token: 'root', paths: ['x'] }],
  ['POST', 'sys/capabilities', { token: 'bogus', paths: ['x'] }],
  ['POST', 'sys/capabilities', { token: 'bogus', paths: ['', 'x'] }],
  ['POST', 'sys/capabilities', { paths: ['x'] }],
  ['POST', 'sys/capabilities', { token: '', paths: ['x'] }],
  ['POST', 'sys/capabilities', { token: null, paths: ['x'] }],
  ['POST', 'sys/capabilities', { token: '<dflt>' }],
  ['POST', 'sys/capabilities', { token: '<dflt>', paths: ['x'], accessor: 'a' }],
  ['POST', 'sys/capabilities', { token: '<dflt>', paths: ['x'] }, 'dflt'],
  ['GET', 'sys/capabilities'],
  ['POST', 'sys/capabilities/', { token: 'root', paths: ['x'] }],
  ['POST', 'sys/capabilities-accessor', { accessor: '<dflt.acc>', paths: ['auth/token/lookup-self', 'sys/wrapping/wrap'] }],
  ['POST', 'sys/capabilities-accessor', { accessor: '<nodef.acc>', paths: ['auth/token/lookup-self'] }],
  ['POST', 'sys/capabilities-accessor', { accessor: 'bogus', paths: ['x'] }],
  ['POST', 'sys/capabilities-accessor', { accessor: 'bogus' }],
  ['POST', 'sys/capabilities-accessor', { paths: ['x'] }],
  ['POST', 'sys/capabilities-accessor', { accessor: '', paths: ['x'] }],
  ['POST', 'sys/capabilities-accessor', { accessor: 7, paths: ['x'] }],
  ['POST', 'sys/capabilities-accessor', { accessor: '<dflt.acc>' }],
  ['POST', 'sys/capabilities-accessor', { accessor: '<dflt.acc>', token: 'root', paths: ['x'] }],
  ['POST', 'sys/capabilities-accessor', { accessor: '<dflt.acc>', paths: ['x'] }, 'dflt'],
  ['DELETE', 'sys/capabilities-accessor'],
  // a token's uses: the request's own first, a named token's not at all
  ['POST', 'auth/token/create', { num_uses: 1, policies: ['dev'], ttl: '1h' }, undefined, 'once'],
  ['POST', SELF, { paths: ['x'] }, 'once'],
  ['POST', SELF, { paths: ['x'] }, 'once'],
  ['POST', 'auth/token/create', { num_uses: 2, policies: ['dev'], ttl: '1h' }, undefined, 'twice'],
  ['POST', 'sys/capabilities', { token: '<twice>', paths: ['x'] }],
  ['POST', 'auth/token/lookup', { token: '<twice>' }],
  ['POST', SELF, {}, 'twice'],
  ['POST', 'auth/token/lookup', { token: '<twice>' }],
  // the self routes, for a token without the default policy
  ['GET', 'auth/token/lookup-self', undefined, 'nodef'],
  ['POST', 'auth/token/renew-self', {}, 'nodef'],
  ['POST', 'auth/token/revoke-self', {}, 'nodef'],
  ['POST', 'auth/token/lookup', { token: '<nodef>' }],
  // the server is shared with the other tests: its roles are left as they were
  ['DELETE', 'auth/token/roles/capent'],
]

compareCallByCall('the capabilities paths against the real server and doppel serve', STEPS, { base: '', unorderedTop: true }, (real) => {
  expect(real.find((step) => step.startsWith(`POST ${SELF} {"paths":["cubbyhole/x/y"]} as dflt`))).toMatch(/"data":\{"capabilities":\["create","delete","list","read","update"\]/)
})
