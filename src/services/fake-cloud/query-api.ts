import { BodyTooLargeError, readBodyBytes } from '../../core/http.ts'
import { StateTooLargeError } from '../../core/store.ts'
import { asEc2Error, cloudErrors } from './cloud-errors.ts'
import { explainResponse, explanationOf } from '../../core/explanation.ts'
import type { CloudState } from './cloud-state.ts'
import { describeInstances } from './ec2/describe-instances.ts'
import { describeInstancesXml } from './ec2/ec2-xml.ts'
import { CloudError } from './glossary.ts'
import { createAccessKey, deleteAccessKey, getInstanceProfile, getRole, getUser, listAccessKeys } from './iam/iam-operations.ts'
import { iamXml } from './iam/iam-xml.ts'
import { filterParams, listParam, readQueryParams, type QueryParams } from './query-params.ts'
import { ec2Error, ec2Result, queryError, queryResult, type QueryService } from './query-xml.ts'
import { verifySigV4, type VerifiedRequest } from './sigv4/verify-sigv4.ts'
import { assumeRole, getCallerIdentity } from './sts/sts-operations.ts'
import { stsXml } from './sts/sts-xml.ts'
import { ownEntry } from '../../core/own-field.ts'

/**
 * The query-protocol HTTP face of STS, IAM and EC2: read the body raw, parse the parameters, verify SigV4,
 * run the operation shared with the direct face, and answer its XML (or the service's error XML).
 */
type Operation = (state: CloudState, verified: VerifiedRequest, params: QueryParams) => string | undefined | ValuedResult

/** A result's XML and the value it was written from (see `queryResult`). */
interface ValuedResult {
  xml: string
  value: unknown
}

export const QUERY_BODY_LIMIT = 1024 * 1024

const OPERATIONS: Record<QueryService, Record<string, Operation>> = {
  sts: {
    GetCallerIdentity: (_state, { caller }) => {
      const identity = getCallerIdentity(caller)
      return { xml: stsXml.getCallerIdentity(identity), value: identity }
    },
    AssumeRole: (state, { caller }, params) =>
      stsXml.assumeRole(
        assumeRole(state, caller, {
          roleArn: params.get('RoleArn'),
          roleSessionName: params.get('RoleSessionName'),
          durationSeconds: params.get('DurationSeconds'),
          externalId: params.get('ExternalId'),
        }),
      ),
  },
  iam: {
    GetUser: (state, { caller }, params) => iamXml.getUser(getUser(state, caller, params.get('UserName'))),
    GetRole: (state, { caller }, params) => iamXml.getRole(getRole(state, caller, params.get('RoleName'))),
    GetInstanceProfile: (state, { caller }, params) => {
      const { profile, roles } = getInstanceProfile(state, caller, params.get('InstanceProfileName'))
      return iamXml.getInstanceProfile(profile, roles)
    },
    ListAccessKeys: (state, { caller }, params) => {
      const { user, keys } = listAccessKeys(state, caller, params.get('UserName'))
      return iamXml.listAccessKeys(user, keys)
    },
    CreateAccessKey: (state, { caller }, params) => {
      const key = createAccessKey(state, caller, params.get('UserName'))
      return iamXml.createAccessKey(key, state.principals.get(key.owner_arn)!.name)
    },
    DeleteAccessKey: (state, { caller }, params) => {
      deleteAccessKey(state, caller, params.get('AccessKeyId'), params.get('UserName'))
      return undefined
    },
  },
  ec2: {
    DescribeInstances: (state, { caller, region }, params) => {
      const { instances, nextToken } = describeInstances(state, caller, region, {
        instanceIds: listParam(params, 'InstanceId'),
        filters: filterParams(params),
        maxResults: params.get('MaxResults'),
        nextToken: params.get('NextToken'),
        dryRun: params.get('DryRun') === 'true',
      })
      return describeInstancesXml(instances, nextToken)
    },
  },
}

/** The actions each query service answers, by name (the route inventory of the robustness corpus reads them). */
export const QUERY_ACTIONS = Object.fromEntries(
  Object.entries(OPERATIONS).map(([service, operations]) => [service, Object.keys(operations)]),
) as Record<QueryService, string[]>

/**
 * Answers one query-protocol request for `service`. `mount` is the path prefix the service was reached
 * under (e.g. `_doppel/cloud/sts`), which a signature may or may not cover.
 */
export async function serveQueryApi(state: CloudState, service: QueryService, request: Request, mount: string[] = []): Promise<Response> {
  const meta = { requestId: state.ids.requestId(), date: state.emulator.clock.now() }
  try {
    const url = new URL(request.url)
    const body = await readBodyBytes(request, QUERY_BODY_LIMIT).catch((error: unknown) => {
      throw error instanceof BodyTooLargeError ? cloudErrors.bodyTooLarge() : error
    })
    const params = readQueryParams(request, url, body)
    const verified = verifySigV4(state, { method: request.method, url, headers: request.headers, body }, service, mount)
    const action = params.get('Action')
    if (action === undefined || action === '') throw cloudErrors.missingAction()
    const operation = ownEntry(OPERATIONS[service], action)
    if (operation === undefined) throw cloudErrors.invalidAction(action, params.get('Version') ?? '')
    const output = operation(state, verified, params)
    const result = typeof output === 'object' ? output.xml : output
    return service === 'ec2' ? ec2Result(action, result ?? '', meta) : queryResult(service, action, result, meta, typeof output === 'object' ? output.value : undefined)
  } catch (caught) {
    const error = caught instanceof StateTooLargeError ? cloudErrors.stateTooLarge(caught.message) : caught
    if (!(error instanceof CloudError)) throw error
    const answer = service === 'ec2' ? ec2Error(asEc2Error(error), meta) : queryError(service, error, meta)
    return explainResponse(answer, explanationOf(error, error.code))
  }
}
