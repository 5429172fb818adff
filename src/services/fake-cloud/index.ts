/**
 * The fake cloud provider: an inventory of accounts, instances and IAM principals; the instance metadata
 * service with signed identity documents; STS, EC2 and IAM verifying SigV4 for real. `fakeCloud` is its
 * HTTP face (the emulator routes AWS hostnames and the faces under `/_doppel/cloud/` to it, as `urls.ts`
 * says); `getFakeCloud` is the direct face the auth service calls in process; `seedCloud` loads fixtures.
 */
export { fakeCloud } from './fake-cloud-service.ts'
export { cloudFaultError, cloudFaultResponse, type QueryService } from './query-xml.ts'
export { getFakeCloud } from './fake-cloud-api.ts'
export type { FakeCloudOptions } from './options.ts'
export { seedCloud } from './seed-cloud.ts'
export { accountOfKeyId, DEFAULT_ACCOUNT, DEFAULT_REGION } from './ids.ts'
export { CloudError } from './glossary.ts'
export { regionalStsEndpoint } from './regions.ts'
export { AWS_FACES, awsFaceOf, awsFacePath, defaultAwsEndpoint, FAKE_CLOUD_URL, isFakeCloudHost, regionalStsRegion } from './urls.ts'
export { isInProcessEndpoint, registerCloudListener } from './own-origins.ts'
export { regionAtAwsHost } from './aws-host-call.ts'
export { signedFormHeaders } from './sigv4/sign-request.ts'
// SigV4 building blocks, shared with the scenario runner's request signer.
export { canonicalHeaders, canonicalQuery, encodeRfc3986 } from './sigv4/canonical-request.ts'
export { computeSignature, deriveSigningKey } from './sigv4/signature.ts'
export type {
  AssumedRoleCredentials,
  AssumeRoleInput,
  AwsCredentials,
  CallerIdentity,
  CloudListeners,
  CloudSetup,
  CloudFixture,
  DescribedInstance,
  FakeCloudApi,
  HttpTokens,
  IamEntity,
  IdentityFormat,
  Instance,
  InstanceInput,
  InstanceMetadataTags,
  InstanceState,
  MetadataOptions,
  NewAccessKey,
  PolicyDocument,
  Principal,
  PrincipalInput,
  ProviderCalls,
  SeededCloud,
} from './glossary.ts'
export { FAKE_CLOUD_SERVICE } from './descriptor.ts'
export { stsXml } from './sts/sts-xml.ts'
export { QUERY_ACTIONS, QUERY_BODY_LIMIT } from './query-api.ts'
export { getSigner } from './identity/signing-material.ts'
export { buildSignedData } from './identity/signed-data.ts'
