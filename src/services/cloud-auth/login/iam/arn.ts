import type { ParsedArn } from '../../iam-arn.ts'

/** `arn:<partition>:iam::<account>:<user|role>/<name>`: the path dropped, an assumed role as its role. */
export function canonicalArn(entity: ParsedArn): string {
  const type = entity.type === 'assumed-role' ? 'role' : entity.type
  return `arn:${entity.partition}:iam::${entity.accountId}:${type}/${entity.friendlyName}`
}

/** The entity as Go's `%v` prints the pointer in error texts: `&{aws 123456789012 user  name }`. */
export function formatEntity(entity: ParsedArn): string {
  return `&{${entity.partition} ${entity.accountId} ${entity.type} ${entity.path} ${entity.friendlyName} ${entity.sessionInfo}}`
}
