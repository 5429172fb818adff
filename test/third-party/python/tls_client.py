"""Python clients against `doppel serve --tls --profile vault`, configured as `vault server -dev-tls` tells
users to: hvac from VAULT_ADDR and VAULT_CACERT, requests with verify=<ca>. Prints one JSON line."""
import json
import os

import hvac
import requests

ADDR = os.environ["VAULT_ADDR"]
CA = os.environ["VAULT_CACERT"]

result = {"health": requests.get(ADDR + "/_doppel/health", verify=CA).json()}

# hvac reads VAULT_ADDR and VAULT_CACERT itself.
client = hvac.Client(token="root")
client.auth.aws.create_role("tls-role", auth_type="ec2", bound_ami_id="ami-0123456789abcdef0")
result["roles"] = client.auth.aws.list_roles()["keys"]

try:
    requests.get(ADDR + "/_doppel/health", verify=True)
    result["untrusted"] = "answered"
except requests.exceptions.SSLError as error:
    result["untrusted"] = "SSLError" if "CERTIFICATE_VERIFY_FAILED" in str(error) else str(error)

print(json.dumps(result))
