"""An unmodified Python application on an instance: botocore finds its region and credentials in IMDS,
boto3 calls STS, and hvac logs in to the auth service with either method. Prints one JSON line."""
import json
import os
import sys

import boto3
import botocore.session
import hvac
import requests
from botocore.utils import InstanceMetadataRegionFetcher

DOPPEL = os.environ["DOPPEL_URL"]
IMDS = os.environ["AWS_EC2_METADATA_SERVICE_ENDPOINT"]
ROLE = os.environ["ROLE"]


def vault():
    return hvac.Client(url=DOPPEL)


def failure(error):
    return {"failed": type(error).__name__, "errors": getattr(error, "errors", None) or [str(error)]}


def imds_region():
    # botocore's own IMDS region reader (it asks placement/availability-zone/ with the trailing slash).
    return InstanceMetadataRegionFetcher(config={"ec2_metadata_service_endpoint": IMDS}).retrieve_region()


def iam_login(signing_region):
    session = botocore.session.get_session()
    credentials = session.get_credentials().get_frozen_credentials()
    region = imds_region()
    sts = boto3.client(
        "sts",
        region_name=region,
        endpoint_url=DOPPEL + "/_doppel/cloud/sts",
        aws_access_key_id=credentials.access_key,
        aws_secret_access_key=credentials.secret_key,
        aws_session_token=credentials.token,
    )
    result = {
        "region": region,
        "caller_arn": sts.get_caller_identity()["Arn"],
    }
    try:
        login = vault().auth.aws.iam_login(
            credentials.access_key,
            credentials.secret_key,
            credentials.token,
            role=ROLE,
            region=signing_region,
        )
        result["auth"] = login["auth"]
    except hvac.exceptions.VaultError as error:
        result.update(failure(error))
    return result


def ec2_login(document):
    token = requests.put(
        IMDS + "/latest/api/token", headers={"X-aws-ec2-metadata-token-ttl-seconds": "60"}, timeout=5
    ).text
    pkcs7 = requests.get(
        IMDS + "/latest/dynamic/instance-identity/" + document, headers={"X-aws-ec2-metadata-token": token}, timeout=5
    ).text
    try:
        login = vault().auth.aws.ec2_login(pkcs7, nonce="python-app-nonce", role=ROLE)
        return {"auth": login["auth"]}
    except hvac.exceptions.VaultError as error:
        return failure(error)


COMMANDS = {
    "iam-login": lambda: iam_login("us-east-1"),
    "iam-login-scoped-eu-west-1": lambda: iam_login("eu-west-1"),
    "ec2-login-rsa2048": lambda: ec2_login("rsa2048"),
    "ec2-login-pkcs7": lambda: ec2_login("pkcs7"),
}

print(json.dumps(COMMANDS[sys.argv[1]]()))
