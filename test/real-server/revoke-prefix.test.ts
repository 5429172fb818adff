// sys/leases/revoke-prefix and sys/leases/revoke-force call by call against the real server and against
// `doppel serve --profile vault`: tokens made against token roles (a prefix names whole segments of their
// path; batch tokens have no lease; a token's children go with it), `sync`, the operations and the refusals.
// Not sent here: `sys/revoke-prefix/…` and `sys/revoke-force/…`, which Vault 1.21.4 routes and OpenBao's
// server does not (404); a prefix the root token's own lease sits under (`auth/token/create`), which on the
// real server's dev mode revokes its root token; a `sync` that is no bool, which OpenBao's older mapstructure
// words otherwise (test/real-server/field-conversion.test.ts holds doppel to Vault's).
import { expect } from 'vitest'
import { compareCallByCall, type Step } from './step-driver.ts'

const lookup = (label: string): Step => ['POST', 'auth/token/lookup', { token: `<${label}>` }]

const STEPS: Step[] = [
  ['POST', 'auth/token/roles/rpa', {}],
  ['POST', 'auth/token/roles/rpa2', {}],
  ['POST', 'auth/token/roles/rpb', { path_suffix: 'v1x' }],
  ['POST', 'auth/token/create/rpa', { policies: ['a'] }, undefined, 'a'],
  ['POST', 'auth/token/create/rpa', { policies: ['a'], type: 'batch' }, undefined, 'batch'],
  ['POST', 'auth/token/create/rpa2', { policies: ['a'] }, undefined, 'a2'],
  ['POST', 'auth/token/create/rpa', { policies: ['root'] }, undefined, 'ar'],
  ['POST', 'auth/token/create', { policies: ['a'], ttl: '1h' }, 'ar', 'child'],
  ['POST', 'auth/token/create/rpb', { policies: ['a'] }, undefined, 'b'],
  ['POST', 'sys/leases/revoke-prefix/auth/token/create/rpa', {}],
  ...['a', 'batch', 'a2', 'ar', 'child', 'b'].map(lookup),
  ['POST', 'sys/leases/revoke-prefix/auth/token/create/rpb/v1', {}],
  lookup('b'),
  // sync false: the real server revokes lazily after answering, so no lookup follows
  ['PUT', 'sys/leases/revoke-prefix/auth/token/create/rpb/v1x', { sync: false }],
  ['POST', 'auth/token/create/rpa2', { policies: ['a'] }, undefined, 'a3'],
  ['POST', 'sys/leases/revoke-force/auth/token/create/rpa2', { sync: true }],
  lookup('a2'),
  lookup('a3'),
  ['POST', 'auth/token/create/rpa', { policies: ['a'] }, undefined, 'a4'],
  ['POST', 'sys/leases/revoke-prefix/auth/token/create/rpa/', {}],
  ['POST', 'sys/leases/revoke-prefix/AUTH/token/create/rpa', {}],
  ['POST', 'sys/leases/revoke-prefix/nothing/here', { sync: null }],
  ['POST', 'sys/leases/revoke-prefix/nothing/here', { sync: 'false', bogus: 1 }],
  ['POST', 'sys/leases/revoke-prefix/nothing/here', { prefix: 'auth/token/create/rpa' }],
  lookup('a4'),
  ['GET', 'sys/leases/revoke-prefix/auth/token/create/rpa'],
  ['DELETE', 'sys/leases/revoke-prefix/auth/token/create/rpa'],
  ['LIST', 'sys/leases/revoke-prefix/auth/token/create/rpa'],
  ['GET', 'sys/leases/revoke-force/auth/token/create/rpa'],
  ['POST', 'sys/leases/revoke-prefix', {}],
  ['POST', 'sys/leases/revoke-prefix/', {}],
  ['POST', 'sys/leases/revoke-force', {}],
  ['POST', 'auth/token/create', { policies: ['a'] }, undefined, 'user'],
  ['POST', 'sys/leases/revoke-prefix/auth/token/create/rpa', {}, 'user'],
  ['POST', 'sys/leases/revoke-force/auth/token/create/rpa', {}, 'user'],
  ['POST', 'sys/leases/revoke-prefix/auth/token/create/rpa', {}, 'nobody'],
  lookup('a4'),
  // the server is shared with the other tests: its roles and tokens are left as they were
  ['POST', 'auth/token/revoke', { token: '<a4>' }],
  ['POST', 'auth/token/revoke', { token: '<user>' }],
  ...['rpa', 'rpa2', 'rpb'].map((name): Step => ['DELETE', `auth/token/roles/${name}`]),
]

compareCallByCall('revoke-prefix against the real server and doppel serve', STEPS, { base: '' }, (real) => {
  expect(real.filter((step) => step.endsWith('403 {"errors":["bad token"]}'))).toHaveLength(5)
})
