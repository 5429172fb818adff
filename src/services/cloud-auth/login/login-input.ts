import { Fields, type FieldSchema, type HeaderMap } from '../fields/index.ts'

/** The login's fields and their types (docs/reference/cloud-auth.md §3.12): all strings but the TypeHeader headers. */
export const LOGIN_SCHEMA: FieldSchema = {
  role: 'string',
  pkcs7: 'string',
  identity: 'string',
  signature: 'string',
  nonce: 'string',
  iam_http_request_method: 'string',
  iam_request_url: 'string',
  iam_request_body: 'string',
  iam_request_headers: 'header',
}

/** The converted login fields; `nonce` is undefined when absent (presence matters for it). */
export interface LoginInput {
  present: ReadonlySet<string>
  role: string
  pkcs7: string
  identity: string
  signature: string
  nonce: string | undefined
  iamMethod: string
  iamUrl: string
  iamBody: string
  iamHeaders: HeaderMap
}

/** Converts the raw request data; a conversion failure throws the fields module's FieldError. */
export function readLoginInput(data: Record<string, unknown>): LoginInput {
  const fields = new Fields(LOGIN_SCHEMA, data)
  const text = (name: string) => fields.string(name) ?? ''
  return {
    present: new Set(Object.keys(LOGIN_SCHEMA).filter((name) => fields.has(name))),
    role: text('role'),
    pkcs7: text('pkcs7'),
    identity: text('identity'),
    signature: text('signature'),
    nonce: fields.has('nonce') ? text('nonce') : undefined,
    iamMethod: text('iam_http_request_method'),
    iamUrl: text('iam_request_url'),
    iamBody: text('iam_request_body'),
    iamHeaders: fields.headers('iam_request_headers') ?? {},
  }
}

/** A login that passed: the `auth` object and the warnings of token creation. */
export interface LoginResult {
  auth: Record<string, unknown>
  warnings: string[]
}
