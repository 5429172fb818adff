/**
 * IAM ARNs as the real service reads them (docs/reference/cloud-auth.md §5 E): `arn:<partition>:iam::<account>:<type>/<path/><name>`
 * or `arn:<partition>:sts::<account>:assumed-role/<role>/<session>`.
 */
import { goQuote } from '../../core/go/go-format.ts'
import { errorKind } from '../../core/doppel-error.ts'
import { ownEntry } from '../../core/own-field.ts'

export class IamArnError extends errorKind('IamArnError', 'DOPPEL_INVALID_ARN') {}

type IamEntityType = 'user' | 'role' | 'assumed-role' | 'instance-profile'

export interface ParsedArn {
  partition: string
  accountId: string
  type: IamEntityType
  path: string
  friendlyName: string
  /** The session name of an assumed role; `""` otherwise. */
  sessionInfo: string
}

const ENTITY_TYPES = new Set<string>(['user', 'role', 'assumed-role', 'instance-profile'])

/** Parses an ARN, with the real service's error texts. */
export function parseIamArn(arn: string): ParsedArn {
  const parts = arn.split(':')
  if (parts.length !== 6) {
    throw new IamArnError(`unrecognized arn: contains ${parts.length} colon-separated parts, expected 6`)
  }
  if (parts[0] !== 'arn') throw new IamArnError('unrecognized arn: does not begin with "arn:"')
  if (parts[2] !== 'iam' && parts[2] !== 'sts') {
    throw new IamArnError(`unrecognized service: ${parts[2]}, not one of iam or sts`)
  }
  const resource = parts[5]!.split('/')
  if (resource.length < 2) {
    throw new IamArnError(`unrecognized arn: ${goQuote(parts[5]!)} contains fewer than 2 slash-separated parts`)
  }
  const type = resource[0]!
  const entity: ParsedArn = {
    partition: parts[1]!,
    accountId: parts[4]!,
    type: type as IamEntityType,
    path: resource.slice(1, -1).join('/'),
    friendlyName: resource[resource.length - 1]!,
    sessionInfo: '',
  }
  if (type === 'assumed-role') {
    if (resource.length < 3) {
      throw new IamArnError(`unrecognized arn: ${goQuote(parts[5]!)} contains fewer than 3 slash-separated parts`)
    }
    entity.path = ''
    entity.friendlyName = resource[1]!
    entity.sessionInfo = resource[2]!
  } else if (!ENTITY_TYPES.has(type)) {
    throw new IamArnError(`unrecognized principal type: ${goQuote(type)}`)
  }
  return entity
}

/** The region IAM calls use in each partition (IAM is global; the SDK still wants one). */
const PARTITION_REGIONS: Record<string, string> = {
  aws: 'us-east-1',
  'aws-cn': 'cn-north-1',
  'aws-us-gov': 'us-gov-west-1',
  'aws-iso': 'us-iso-east-1',
  'aws-iso-b': 'us-isob-east-1',
}

/** The IAM region of a partition, or undefined for an unknown partition. */
export function partitionRegion(partition: string): string | undefined {
  return ownEntry(PARTITION_REGIONS, partition)
}
