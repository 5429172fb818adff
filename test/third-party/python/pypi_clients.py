"""Today's hvac and boto3 (from the Python registry) against `doppel serve --profile vault`, over HTTP or TLS.

An application on an instance: botocore's own provider chain takes the role's credentials from the instance's
IMDS, boto3 calls STS, EC2 and IAM at doppel's fake cloud, and hvac writes, reads, LISTs and deletes roles,
tunes the mount's lease TTLs, logs in with both methods and looks up and renews its token, which the root token
then looks up, renews and revokes by its id and its accessor. Over TLS, boto3 trusts AWS_CA_BUNDLE and hvac
VAULT_CACERT, both of which it reads itself. Prints one JSON object: each step's answer or error code.
"""
import json
import os
from importlib.metadata import version

import boto3
import botocore.session
import hvac
import requests
from botocore.exceptions import ClientError
from botocore.utils import InstanceMetadataRegionFetcher

VAULT_ADDR = os.environ["VAULT_ADDR"]
CLOUD = VAULT_ADDR + "/_doppel/cloud"
IMDS = os.environ["AWS_EC2_METADATA_SERVICE_ENDPOINT"]
INSTANCE_ID = os.environ["INSTANCE_ID"]
OTHER_ROLE_ARN = os.environ["OTHER_ROLE_ARN"]
USER_NAME = os.environ["USER_NAME"]

result = {"versions": {name: version(name) for name in ("hvac", "boto3", "botocore")}}


def error_code(call):
    try:
        call()
        return "no error"
    except ClientError as error:
        return error.response["Error"]["Code"]


# The credentials come from botocore's default chain, which ends at the instance metadata provider.
session = botocore.session.get_session()
credentials = session.get_credentials()
result["credential_method"] = credentials.method
region = InstanceMetadataRegionFetcher(config={"ec2_metadata_service_endpoint": IMDS}).retrieve_region()
result["region"] = region
aws = boto3.Session(botocore_session=session, region_name=region)
sts = aws.client("sts", endpoint_url=CLOUD + "/sts")
ec2 = aws.client("ec2", endpoint_url=CLOUD + "/ec2")
iam = aws.client("iam", endpoint_url=CLOUD + "/iam")

result["caller_arn"] = sts.get_caller_identity()["Arn"]
assumed = sts.assume_role(RoleArn=OTHER_ROLE_ARN, RoleSessionName="pypi-clients", DurationSeconds=900)
result["assumed_arn"] = assumed["AssumedRoleUser"]["Arn"]
as_other = boto3.client(
    "sts",
    region_name=region,
    endpoint_url=CLOUD + "/sts",
    aws_access_key_id=assumed["Credentials"]["AccessKeyId"],
    aws_secret_access_key=assumed["Credentials"]["SecretAccessKey"],
    aws_session_token=assumed["Credentials"]["SessionToken"],
)
result["assumed_caller_arn"] = as_other.get_caller_identity()["Arn"]

reservations = ec2.describe_instances(InstanceIds=[INSTANCE_ID])["Reservations"]
instance = reservations[0]["Instances"][0]
result["instance"] = {"id": instance["InstanceId"], "state": instance["State"]["Name"], "profile_arn": instance["IamInstanceProfile"]["Arn"]}
pages = ec2.get_paginator("describe_instances").paginate(Filters=[{"Name": "instance-id", "Values": [INSTANCE_ID]}])
result["paginated_ids"] = [i["InstanceId"] for page in pages for r in page["Reservations"] for i in r["Instances"]]
result["missing_instance"] = error_code(lambda: ec2.describe_instances(InstanceIds=["i-0123456789abcdef0"]))

role_name = instance["IamInstanceProfile"]["Arn"].rsplit("/", 1)[1]
result["user_arn"] = iam.get_user(UserName=USER_NAME)["User"]["Arn"]
result["role_arn"] = iam.get_role(RoleName=role_name)["Role"]["Arn"]
profile = iam.get_instance_profile(InstanceProfileName=role_name)["InstanceProfile"]
result["profile_roles"] = [r["RoleName"] for r in profile["Roles"]]
result["missing_role"] = error_code(lambda: iam.get_role(RoleName="no-such-role"))

# hvac reads VAULT_ADDR and, over TLS, VAULT_CACERT itself. A client checks the server first, without a token.
result["initialized"] = hvac.Client().sys.is_initialized()
result["sealed"] = hvac.Client().sys.is_sealed()
root = hvac.Client(token="root")
root.auth.aws.create_role("pypi-iam", auth_type="iam", bound_iam_principal_arn=[result["role_arn"]], policies=["reader"])
root.auth.aws.create_role("pypi-ec2", auth_type="ec2", bound_iam_role_arn=[result["role_arn"]], policies=["reader"])
root.auth.aws.create_role("pypi-doomed", auth_type="ec2", bound_ami_id=[instance["ImageId"]])
read = root.auth.aws.read_role("pypi-iam")  # hvac returns the data member
result["read_role"] = {"auth_type": read["auth_type"], "policies": read["token_policies"], "bound": read["bound_iam_principal_arn"]}
root.auth.aws.delete_role("pypi-doomed")
result["roles"] = sorted(root.auth.aws.list_roles()["keys"])

# The mount tuned: its logins' tokens take its default TTL.
root.sys.tune_auth_method("aws", default_lease_ttl="30m", max_lease_ttl="2h")
tuning = root.sys.read_auth_method_tuning("aws")["data"]
result["tuning"] = {"default": tuning["default_lease_ttl"], "max": tuning["max_lease_ttl"]}

# hvac signs for the global STS endpoint, which takes only requests scoped to us-east-1.
frozen = credentials.get_frozen_credentials()
iam_login = hvac.Client().auth.aws.iam_login(frozen.access_key, frozen.secret_key, frozen.token, role="pypi-iam", region="us-east-1")
result["iam_login"] = {
    "policies": iam_login["auth"]["policies"],
    "auth_type": iam_login["auth"]["metadata"]["auth_type"],
    "lease_duration": iam_login["auth"]["lease_duration"],
}

token = requests.put(IMDS + "/latest/api/token", headers={"X-aws-ec2-metadata-token-ttl-seconds": "60"}, timeout=5).text
# Both documents are the same instance's: a second login must bring the nonce of the first.
for document in ("rsa2048", "pkcs7"):
    pkcs7 = requests.get(IMDS + "/latest/dynamic/instance-identity/" + document, headers={"X-aws-ec2-metadata-token": token}, timeout=5).text
    login = hvac.Client().auth.aws.ec2_login(pkcs7, nonce="pypi-clients-nonce", role="pypi-ec2")
    result["ec2_login_" + document] = {"policies": login["auth"]["policies"], "metadata": login["auth"]["metadata"]}

user = hvac.Client(token=iam_login["auth"]["client_token"])
looked_up = user.auth.token.lookup_self()["data"]
result["lookup"] = {"policies": looked_up["policies"], "renewable": looked_up["renewable"]}
renewed = user.auth.token.renew_self(increment="1h")["auth"]
result["renewed"] = {"lease_duration": renewed["lease_duration"], "same_token": renewed["client_token"] == iam_login["auth"]["client_token"]}
# The root token names the login's token: looked up by id and accessor, renewed, then revoked by accessor.
accessor = iam_login["auth"]["accessor"]
by_id = root.auth.token.lookup(iam_login["auth"]["client_token"])["data"]
by_accessor = root.auth.token.lookup_accessor(accessor)["data"]
result["named"] = {
    "same_token": by_id["id"] == iam_login["auth"]["client_token"] and by_accessor["accessor"] == accessor,
    "accessor_id": by_accessor["id"],
    "renewed": root.auth.token.renew(iam_login["auth"]["client_token"], increment="30m")["auth"]["lease_duration"],
}
root.auth.token.revoke_accessor(accessor)
try:
    user.auth.token.lookup_self()
    result["named"]["revoked"] = False
except hvac.exceptions.Forbidden:
    result["named"]["revoked"] = True
try:
    hvac.Client().auth.aws.iam_login(frozen.access_key, "x" * 40, frozen.token, role="pypi-iam", region="us-east-1")
    result["bad_secret"] = "logged in"
except hvac.exceptions.InvalidRequest as error:
    result["bad_secret"] = error.errors[0]

print(json.dumps(result))
