// The fake cloud's page: instances and principals as its control routes list them, access keys and accounts.
import { allFields, el, note, part, show, table, time, visible } from './dom.js'

export function renderCloud({ instances, principals, keys, accounts }) {
  const instanceRows = instances.map((instance) => [
    el('span', {}, visible(instance.instance_id), allFields(instance, `instance ${instance.instance_id}`)),
    instance.state,
    visible(instance.ami_id),
    instance.account_id,
    instance.region,
    show(instance.iam_role_arn),
    show(instance.private_ip),
    show(instance.tags),
    time(instance.pending_time),
  ])
  const principalRows = principals.map((principal) => [visible(principal.arn), principal.type, visible(principal.name), principal.unique_id, time(principal.create_date)])
  const keyRows = keys.map((key) => [
    el('span', {}, visible(key.access_key_id), allFields(key, `access key ${key.access_key_id}`)),
    visible(key.owner_arn),
    key.kind,
    key.status,
    time(key.create_date),
    time(key.expiration),
  ])
  return [
    part('cloud-instances', 'Instances', 3, table('EC2 instances', ['instance_id', 'state', 'ami_id', 'account_id', 'region', 'iam_role_arn', 'private_ip', 'tags', 'pending_time'], instanceRows, 'No instances.')),
    part('cloud-principals', 'Principals', 3, table('IAM users and roles', ['arn', 'type', 'name', 'unique_id', 'create_date'], principalRows, 'No principals.')),
    part('cloud-keys', 'Access keys', 3, table('Access keys (secrets as the control API shows them)', ['access_key_id', 'owner_arn', 'kind', 'status', 'create_date', 'expiration'], keyRows, 'No access keys.')),
    part('cloud-accounts', 'Accounts', 3, accounts.length > 0 ? el('ul', {}, ...accounts.map((account) => el('li', { text: account }))) : note('No accounts.')),
  ]
}
