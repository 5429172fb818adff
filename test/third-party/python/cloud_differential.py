"""One sequence of STS, EC2 and IAM calls, made with boto3 against one fake cloud, each answer reduced to its shape.

Run once against moto's server and once against doppel's fake cloud (test/third-party/moto-differential.test.ts).
The inventory is seeded beforehand, each side its own way; INVENTORY names it (a user with its keys, a role, an
instance running with an instance profile of that role's name). The shape of an answer is what a client relies on
and neither side makes up: the status, the error's code and type, the content type, the namespace, the request-id
header, and the XML element paths in document order (the texts, which each side makes up, are left out). Prints
one JSON list, one entry per call.
"""
import json
import os
import re
import sys
import xml.etree.ElementTree as ElementTree

import boto3
from botocore.config import Config
from botocore.exceptions import ClientError

ENDPOINTS = json.loads(os.environ["ENDPOINTS"])  # {"sts": url, "ec2": url, "iam": url}
# One attempt each: a retried refusal would hide what the first answer was. The servers, not boto3, check
# the parameters.
CONFIG = Config(retries={"max_attempts": 1, "mode": "standard"}, parameter_validation=False)


def seed_moto():
    """moto's inventory, made through its own API as a user of it would (any key is accepted)."""
    keys = {"aws_access_key_id": "AKIAIOSFODNN7EXAMPLE", "aws_secret_access_key": "x" * 40}
    iam = boto3.client("iam", region_name="us-east-1", endpoint_url=ENDPOINTS["iam"], **keys)
    ec2 = boto3.client("ec2", region_name="us-east-1", endpoint_url=ENDPOINTS["ec2"], **keys)
    iam.create_user(UserName="differential-user")
    key = iam.create_access_key(UserName="differential-user")["AccessKey"]
    trust = {"Statement": [{"Effect": "Allow", "Principal": {"AWS": "arn:aws:iam::123456789012:root"}, "Action": "sts:AssumeRole"}]}
    role = iam.create_role(RoleName="differential-role", AssumeRolePolicyDocument=json.dumps(trust))["Role"]
    iam.create_role(RoleName="differential-app", AssumeRolePolicyDocument=json.dumps(trust))
    iam.create_instance_profile(InstanceProfileName="differential-app")
    iam.add_role_to_instance_profile(InstanceProfileName="differential-app", RoleName="differential-app")
    image = next(i["ImageId"] for i in ec2.describe_images(Owners=["amazon"])["Images"] if "Platform" not in i)
    instance = ec2.run_instances(ImageId=image, MinCount=1, MaxCount=1, IamInstanceProfile={"Name": "differential-app"})["Instances"][0]
    # Five more, so that a page of five has a next one; one reservation each, as doppel makes them.
    for _ in range(5):
        ec2.run_instances(ImageId=image, MinCount=1, MaxCount=1)
    return {
        "user_name": "differential-user",
        "access_key_id": key["AccessKeyId"],
        "secret_access_key": key["SecretAccessKey"],
        "role_name": "differential-role",
        "role_arn": role["Arn"],
        "profile_name": "differential-app",
        "instance_id": instance["InstanceId"],
    }


if sys.argv[1:] == ["seed-moto"]:
    json.dump(seed_moto(), sys.stdout)
    sys.exit(0)

INVENTORY = json.loads(os.environ["INVENTORY"])
KEYS = {"aws_access_key_id": INVENTORY["access_key_id"], "aws_secret_access_key": INVENTORY["secret_access_key"]}

answers = []


def shape(body):
    """Every element's path (namespace dropped), in document order."""
    try:
        root = ElementTree.fromstring(body)
    except ElementTree.ParseError:
        return ["(not XML) " + body[:80].decode("utf-8", "replace")]
    paths = []

    def walk(element, prefix):
        name = prefix + element.tag.split("}")[-1]
        paths.append(name)
        for child in element:
            walk(child, name + "/")

    walk(root, "")
    return paths


def namespace(body):
    match = re.match(rb"\s*(<\?xml[^>]*>\s*)?<[A-Za-z]+[^>]*?xmlns=\"([^\"]*)\"", body)
    return match.group(2).decode() if match else ""


def record(name, client, method, **params):
    captured = {}

    def keep(http_response, **_):
        captured["response"] = http_response

    client.meta.events.register("after-call", keep)
    error = None
    try:
        getattr(client, method)(**params)
    except ClientError as refusal:
        error = {"code": refusal.response["Error"].get("Code"), "type": refusal.response["Error"].get("Type")}
    finally:
        client.meta.events.unregister("after-call", keep)
    response = captured["response"]
    headers = {k.lower(): v for k, v in response.headers.items()}
    answers.append(
        {
            "call": name,
            "status": response.status_code,
            "content_type": headers.get("content-type", ""),
            "request_id_header": sorted(h for h in headers if h in ("x-amzn-requestid", "x-amz-request-id")),
            "namespace": namespace(response.content),
            "error": error,
            "shape": shape(response.content),
        }
    )


def client(service, **keys):
    return boto3.client(service, region_name="us-east-1", endpoint_url=ENDPOINTS[service], config=CONFIG, **(keys or KEYS))


sts, ec2, iam = client("sts"), client("ec2"), client("iam")
instance_id = INVENTORY["instance_id"]

record("sts GetCallerIdentity", sts, "get_caller_identity")
assumed = sts.assume_role(RoleArn=INVENTORY["role_arn"], RoleSessionName="differential")["Credentials"]
record("sts AssumeRole", sts, "assume_role", RoleArn=INVENTORY["role_arn"], RoleSessionName="differential", DurationSeconds=900)
as_role = client("sts", aws_access_key_id=assumed["AccessKeyId"], aws_secret_access_key=assumed["SecretAccessKey"], aws_session_token=assumed["SessionToken"])
record("sts GetCallerIdentity as the assumed role", as_role, "get_caller_identity")
record("sts AssumeRole, a session name with a space", sts, "assume_role", RoleArn=INVENTORY["role_arn"], RoleSessionName="no spaces")
record("sts AssumeRole, DurationSeconds 60", sts, "assume_role", RoleArn=INVENTORY["role_arn"], RoleSessionName="short", DurationSeconds=60)
wrong_secret = client("sts", aws_access_key_id=INVENTORY["access_key_id"], aws_secret_access_key="x" * 40)
record("sts GetCallerIdentity, a wrong secret", wrong_secret, "get_caller_identity")
unknown_key = client("sts", aws_access_key_id="AKIAIOSFODNN7EXAMPLE", aws_secret_access_key="x" * 40)
record("sts GetCallerIdentity, an unknown key", unknown_key, "get_caller_identity")

record("ec2 DescribeInstances by id", ec2, "describe_instances", InstanceIds=[instance_id])
record("ec2 DescribeInstances by filter", ec2, "describe_instances", Filters=[{"Name": "instance-id", "Values": [instance_id]}])
record("ec2 DescribeInstances, a filter that matches nothing", ec2, "describe_instances", Filters=[{"Name": "instance-id", "Values": ["i-0000000000000000f"]}])
record("ec2 DescribeInstances, MaxResults 5", ec2, "describe_instances", MaxResults=5)
next_token = ec2.describe_instances(MaxResults=5)["NextToken"]
record("ec2 DescribeInstances, the second page", ec2, "describe_instances", MaxResults=5, NextToken=next_token)
record("ec2 DescribeInstances, an id that does not exist", ec2, "describe_instances", InstanceIds=["i-0123456789abcdef0"])
record("ec2 DescribeInstances, a malformed id", ec2, "describe_instances", InstanceIds=["not-an-id"])
record("ec2 DescribeInstances, InstanceIds with MaxResults", ec2, "describe_instances", InstanceIds=[instance_id], MaxResults=5)
record("ec2 DescribeInstances, DryRun", ec2, "describe_instances", DryRun=True)
wrong_ec2 = client("ec2", aws_access_key_id=INVENTORY["access_key_id"], aws_secret_access_key="x" * 40)
record("ec2 DescribeInstances, a wrong secret", wrong_ec2, "describe_instances")

record("iam GetUser by name", iam, "get_user", UserName=INVENTORY["user_name"])
record("iam GetUser, the caller", iam, "get_user")
record("iam GetRole", iam, "get_role", RoleName=INVENTORY["role_name"])
record("iam GetInstanceProfile", iam, "get_instance_profile", InstanceProfileName=INVENTORY["profile_name"])
record("iam ListAccessKeys", iam, "list_access_keys", UserName=INVENTORY["user_name"])
record("iam GetUser, a user that does not exist", iam, "get_user", UserName="nobody")
record("iam GetRole, a role that does not exist", iam, "get_role", RoleName="no-such-role")
record("iam GetInstanceProfile, one that does not exist", iam, "get_instance_profile", InstanceProfileName="no-such-profile")
created = iam.create_access_key(UserName=INVENTORY["user_name"])["AccessKey"]
record("iam DeleteAccessKey", iam, "delete_access_key", UserName=INVENTORY["user_name"], AccessKeyId=created["AccessKeyId"])
record("iam CreateAccessKey", iam, "create_access_key", UserName=INVENTORY["user_name"])
record("iam ListAccessKeys, MaxItems 1", iam, "list_access_keys", UserName=INVENTORY["user_name"], MaxItems=1)
record("iam CreateAccessKey, past two keys", iam, "create_access_key", UserName=INVENTORY["user_name"])
wrong_iam = client("iam", aws_access_key_id=INVENTORY["access_key_id"], aws_secret_access_key="x" * 40)
record("iam GetUser, a wrong secret", wrong_iam, "get_user")

json.dump(answers, sys.stdout)
