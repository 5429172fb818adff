# hvac's token class, every call, against the token store
# (hvac-token-calls.test.ts and its real-server twin): each outcome printed as one JSON line, keys sorted; the
# tokens and accessors a call made replaced by their labels, the request's and the lease's ids left out, times,
# entity ids, the server's address and the seconds left replaced by their kind; `mount_type`
# left out, which OpenBao (the real server CI runs) does not send.
# Usage: hvac_token_calls.py <addr> <root token>
import json, re, sys
import hvac

addr, root = sys.argv[1], sys.argv[2]
labels = {}


def client(token):
    return hvac.Client(url=addr, token=token).auth.token


def shape(value, key=None):
    if isinstance(value, dict):
        return {k: shape(v, k) for k, v in sorted(value.items()) if k not in ('request_id', 'lease_id', 'mount_type')}
    if isinstance(value, list):
        return [shape(item) for item in value]
    if isinstance(value, str):
        if value in labels:
            return labels[value]
        if re.match(r'^\d{4}-\d\d-\d\dT', value):
            return '<time>'
        if re.match(r'^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$', value):
            return '<uuid>'
        # OpenBao's own token store names itself in its tidy warning, where Vault's (doppel's model) says Vault
        return value.replace("OpenBao's server logs", "Vault's server logs").replace(addr, '<addr>')
    if isinstance(value, int) and not isinstance(value, bool):
        if key in ('creation_time', 'last_renewal_time'):
            return '<time>'
        if key == 'ttl':
            return '<left>'
    return value


def call(name, fn, keep=None):
    try:
        answer = fn()
        body = answer.json() if hasattr(answer, 'status_code') and answer.content else answer if not hasattr(answer, 'status_code') else None
        if keep and isinstance(body, dict) and body.get('auth'):
            labels[body['auth']['client_token']] = f'<{keep}>'
            if body['auth']['accessor']:
                labels[body['auth']['accessor']] = f'<{keep}.acc>'
        out = {'status': answer.status_code, 'body': shape(body)} if hasattr(answer, 'status_code') else {'ok': shape(body)}
    except Exception as error:
        out = {'error': type(error).__name__, 'errors': shape(getattr(error, 'errors', None) or str(error))}
    print(json.dumps({'call': name, **out}, sort_keys=True))
    return out


def token(label):
    return next((value for value, name in labels.items() if name == f'<{label}>'), 'none')


def accessor(label):
    return next((value for value, name in labels.items() if name == f'<{label}.acc>'), 'none')


admin = client(root)
call('create', lambda: admin.create(policies=['a'], ttl='1h', meta={'app': 'x'}, display_name='hvac'), keep='a')
call('create root child', lambda: admin.create(), keep='r')
call('create every option', lambda: admin.create(policies=['b'], no_parent=True, no_default_policy=True, explicit_max_ttl='2h', num_uses=2, renewable=False, period='30m'), keep='b')
call('create batch', lambda: admin.create(policies=['a'], type='batch'), keep='batch')
call('create custom id', lambda: admin.create(id='hvac-custom', policies=['a']), keep='c')
call('create against a role', lambda: admin.create(role_name='nope'))
call('create refused', lambda: admin.create(type='batch', num_uses=3))
call('create_orphan', lambda: admin.create_orphan(policies=['o'], ttl='30m'), keep='o')
call('lookup', lambda: admin.lookup(token('a')))
call('lookup batch', lambda: admin.lookup(token('batch')))
call('lookup missing', lambda: admin.lookup('hvs.nope'))
call('lookup_accessor', lambda: admin.lookup_accessor(accessor('a')))
call('lookup_self', lambda: client(token('a')).lookup_self())
system = lambda as_token: hvac.Client(url=addr, token=as_token).sys
call('get_capabilities', lambda: system(token('a')).get_capabilities(['auth/token/lookup-self', 'cubbyhole/x', 'sys/wrapping/rewrap']))
call('get_capabilities of one path', lambda: system(token('a')).get_capabilities(['auth/token/renew-self']))
call('get_capabilities of a token', lambda: system(root).get_capabilities(['auth/token/lookup-self'], token=token('a')))
call('get_capabilities of a root child', lambda: system(root).get_capabilities(['auth/cloud/role/x'], token=token('r')))
call('get_capabilities by accessor, no default policy', lambda: system(root).get_capabilities(['auth/token/lookup-self'], accessor=accessor('b')))
call('get_capabilities of a token, by a default-policy token', lambda: system(token('a')).get_capabilities(['x'], token=token('a')))
call('get_capabilities of no path', lambda: system(token('a')).get_capabilities([]))
call('renew', lambda: admin.renew(token('a'), increment='20m'))
call('renew not renewable', lambda: admin.renew(token('b')))
call('renew_self', lambda: client(token('a')).renew_self(increment='10m'))
call('renew_self again', lambda: client(token('a')).renew_self())
call('renew_accessor', lambda: admin.renew_accessor(accessor('o'), increment='5m'))
call('list_accessors by a default-policy token', lambda: client(token('a')).list_accessors())
call('create by a default-policy token', lambda: client(token('a')).create(policies=['a']))
call('create by the root child', lambda: client(token('r')).create(policies=['g']), keep='g')
call('create by the root child, with a custom id', lambda: client(token('r')).create(id='hvac-grandchild'), keep='g2')
call('tidy', lambda: admin.tidy())
call('revoke_and_orphan_children', lambda: admin.revoke_and_orphan_children(token('r')))
call('lookup the orphaned', lambda: admin.lookup(token('g')))
call('revoke the custom', lambda: admin.revoke(token('c')))
call('revoke_accessor', lambda: admin.revoke_accessor(accessor('o')))
call('lookup revoked', lambda: admin.lookup(token('o')))
call('revoke_self', lambda: client(token('a')).revoke_self())
call('lookup_self revoked', lambda: client(token('a')).lookup_self())
call('revoke a tree', lambda: admin.revoke(token('g2')))
call('revoke batch', lambda: admin.revoke(token('batch')))
call('list_roles none', lambda: admin.list_roles())
call('read_role missing', lambda: admin.read_role('hvac-role'))
call('create_or_update_role', lambda: admin.create_or_update_role('hvac-role', allowed_policies=['a', 'B'], disallowed_policies=['x'], orphan=True, path_suffix='v1x', allowed_entity_aliases=['svc-*'], token_period='30m', token_explicit_max_ttl='2h'))
call('read_role', lambda: admin.read_role('hvac-role'))
call('create_or_update_role again', lambda: admin.create_or_update_role('hvac-role', renewable=False))
call('list_roles', lambda: admin.list_roles())
call('create against the role', lambda: admin.create(role_name='hvac-role', policies=['a'], entity_alias='svc-one'), keep='role')
call('lookup the role token', lambda: admin.lookup(token('role')))
call('create against the role, a policy it does not allow', lambda: admin.create(role_name='hvac-role', policies=['z']))
call('delete_role', lambda: admin.delete_role('hvac-role'))
call('create against the deleted role', lambda: admin.create(role_name='hvac-role'))
