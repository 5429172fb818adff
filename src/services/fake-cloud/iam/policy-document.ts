import { wildcardMatch } from './wildcard.ts'

/**
 * The subset of IAM policy documents the fake cloud evaluates (opt-in, per principal): statements with
 * Effect Allow/Deny, Action (with `*`/`?` wildcards, case-insensitive as IAM), Resource `*` or ARN globs;
 * trust policies also Principal (`*`, `{"AWS": …}` account ids, `:root`, user/role ARNs) and the condition
 * `StringEquals` on `sts:ExternalId`. An explicit Deny wins over any Allow; nothing allowed is denied.
 */
interface PolicyStatement {
  Sid?: string
  Effect: 'Allow' | 'Deny'
  Action: string | string[]
  Resource?: string | string[]
  Principal?: '*' | { AWS: string | string[] }
  Condition?: { StringEquals: { 'sts:ExternalId': string | string[] } }
}

export interface PolicyDocument {
  Version?: string
  Statement: PolicyStatement | PolicyStatement[]
}

/** The outcome of an evaluation: allowed, or refused implicitly (nothing allows) or explicitly (a Deny). */
export type PolicyDecision = 'allow' | 'implicit-deny' | 'explicit-deny'

/** Who asks, for trust policies: the principal's ARN (a role for an assumed-role session) and account. */
export interface RequestingPrincipal {
  arn: string
  account: string
}

const LIMITS = { documents: 10, statements: 20, values: 50, text: 2048 }

/** Evaluates identity policies for `action` on `resource`. */
export function evaluateIdentityPolicies(documents: PolicyDocument[], action: string, resource: string): PolicyDecision {
  return decide(documents.flatMap(statementsOf), (s) => actionMatches(s, action) && resourceMatches(s, resource))
}

/** Evaluates a role's trust policy for `sts:AssumeRole` by `caller`, with the ExternalId given (if any). */
export function evaluateTrustPolicy(document: PolicyDocument, caller: RequestingPrincipal, externalId: string | undefined): PolicyDecision {
  return decide(statementsOf(document), (s) => actionMatches(s, 'sts:AssumeRole') && principalMatches(s, caller) && conditionHolds(s, externalId))
}

function decide(statements: PolicyStatement[], applies: (s: PolicyStatement) => boolean): PolicyDecision {
  let allowed = false
  for (const statement of statements) {
    if (!applies(statement)) continue
    if (statement.Effect === 'Deny') return 'explicit-deny'
    allowed = true
  }
  return allowed ? 'allow' : 'implicit-deny'
}

const list = (value: string | string[] | undefined): string[] => (value === undefined ? [] : Array.isArray(value) ? value : [value])
const statementsOf = (document: PolicyDocument): PolicyStatement[] => (Array.isArray(document.Statement) ? document.Statement : [document.Statement])

function actionMatches(statement: PolicyStatement, action: string): boolean {
  return list(statement.Action).some((pattern) => wildcardMatch(pattern, action, true))
}

function resourceMatches(statement: PolicyStatement, resource: string): boolean {
  const resources = list(statement.Resource)
  return resources.length === 0 || resources.some((pattern) => wildcardMatch(pattern, resource))
}

function principalMatches(statement: PolicyStatement, caller: RequestingPrincipal): boolean {
  const principal = statement.Principal
  if (principal === undefined) return false
  if (principal === '*') return true
  return list(principal.AWS).some(
    (entry) => entry === '*' || entry === caller.account || entry === `arn:aws:iam::${caller.account}:root` || entry === caller.arn,
  )
}

function conditionHolds(statement: PolicyStatement, externalId: string | undefined): boolean {
  const wanted = statement.Condition?.StringEquals['sts:ExternalId']
  if (wanted === undefined) return true
  return externalId !== undefined && list(wanted).includes(externalId)
}

/**
 * Why `value` is not a policy document this subset reads (or undefined when it is): unknown keys, other
 * condition operators and oversized documents are refused rather than half-understood.
 */
export function policyDocumentProblem(value: unknown, trust: boolean): string | undefined {
  if (!isObject(value)) return 'a policy document must be an object with "Statement"'
  const unknown = Object.keys(value).find((key) => key !== 'Version' && key !== 'Statement')
  if (unknown !== undefined) return `a policy document has no "${unknown}"`
  const statements = Array.isArray(value.Statement) ? value.Statement : [value.Statement]
  if (statements.length === 0 || statements.length > LIMITS.statements) return `a policy document has 1 to ${LIMITS.statements} statements`
  for (const statement of statements) {
    const problem = statementProblem(statement, trust)
    if (problem !== undefined) return problem
  }
  return undefined
}

/** Why a list of identity policy documents is not acceptable, or undefined. */
export function policyListProblem(value: unknown): string | undefined {
  if (!Array.isArray(value) || value.length > LIMITS.documents) return `policies must be a list of at most ${LIMITS.documents} policy documents`
  for (const document of value) {
    const problem = policyDocumentProblem(document, false)
    if (problem !== undefined) return problem
  }
  return undefined
}

function statementProblem(statement: unknown, trust: boolean): string | undefined {
  if (!isObject(statement)) return 'a statement must be an object'
  const allowedKeys = trust ? ['Sid', 'Effect', 'Action', 'Principal', 'Condition'] : ['Sid', 'Effect', 'Action', 'Resource']
  const unknown = Object.keys(statement).find((key) => !allowedKeys.includes(key))
  if (unknown !== undefined) return `a ${trust ? 'trust policy' : 'policy'} statement takes ${allowedKeys.join(', ')}, not "${unknown}"`
  if (statement.Effect !== 'Allow' && statement.Effect !== 'Deny') return 'a statement\'s "Effect" must be Allow or Deny'
  if (!isStringList(statement.Action, true)) return `a statement's "Action" must be a string or 1 to ${LIMITS.values} strings`
  if (statement.Resource !== undefined && !isStringList(statement.Resource, true)) {
    return `a statement's "Resource" must be a string or 1 to ${LIMITS.values} strings`
  }
  if (trust) {
    const principal = statement.Principal
    const aws = isObject(principal) ? principal : undefined
    if (principal !== '*' && (aws === undefined || Object.keys(aws).join() !== 'AWS' || !isStringList(aws.AWS, true))) {
      return 'a trust statement\'s "Principal" must be "*" or {"AWS": account ids or ARNs}'
    }
    if (statement.Condition !== undefined) {
      const condition = statement.Condition
      const equals = isObject(condition) && Object.keys(condition).join() === 'StringEquals' ? condition.StringEquals : undefined
      if (!isObject(equals) || Object.keys(equals).join() !== 'sts:ExternalId' || !isStringList(equals['sts:ExternalId'], true)) {
        return 'a trust statement\'s "Condition" may only be {"StringEquals": {"sts:ExternalId": …}}'
      }
    }
  }
  return undefined
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function isStringList(value: unknown, nonEmpty: boolean): boolean {
  const items = Array.isArray(value) ? value : [value]
  if (nonEmpty && items.length === 0) return false
  return items.length <= LIMITS.values && items.every((item) => typeof item === 'string' && item.length >= 1 && item.length <= LIMITS.text)
}
