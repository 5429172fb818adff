import { CloudError } from './glossary.ts'
import { LightResponse } from '../../core/light-response.ts'

/**
 * XML of the AWS query protocols: the STS/IAM envelopes (`<XResponse>`, `ErrorResponse`) and EC2's
 * (`requestId` element, `Response/Errors/Error` with `RequestID`), docs/reference/fake-cloud.md §4.2, docs/reference/fake-cloud.md §4.4, docs/reference/fake-cloud.md §6.2, docs/reference/fake-cloud.md §6.3, docs/reference/fake-cloud.md §7.1.
 */

export type QueryService = 'sts' | 'iam' | 'ec2'

const NAMESPACE: Record<QueryService, string> = {
  sts: 'https://sts.amazonaws.com/doc/2011-06-15/',
  iam: 'https://iam.amazonaws.com/doc/2010-05-08/',
  ec2: 'http://ec2.amazonaws.com/doc/2016-11-15/',
}

/** Headers every answer carries: exact content type, request id, and `Date` from the emulator clock (SDK skew correction). */
export interface ResponseMeta {
  requestId: string
  date: Date
}

/** Text content as AWS writes it: only `&`, `<` and `>` escaped (apostrophes and quotes stay as they are). */
function escapeXml(text: string): string {
  return text.replace(/[<>&]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;' })[c]!)
}

/** An element holding already-built XML children; `<name/>` when empty. */
export function element(name: string, ...children: string[]): string {
  const inner = children.join('')
  return inner === '' ? `<${name}/>` : `<${name}>${inner}</${name}>`
}

/** An element holding text; omitted entirely when the value is undefined or null. */
export function textElement(name: string, value: string | number | boolean | null | undefined): string {
  if (value === undefined || value === null) return ''
  return element(name, escapeXml(String(value)))
}

/** A list as the query protocol writes it: `<name><member>…</member>…</name>`. */
export function memberList(name: string, members: string[], member = 'member'): string {
  return element(name, ...members.map((m) => element(member, m)))
}

/**
 * A successful STS/IAM answer: `<XResponse><XResult>…` (no Result element for operations without output).
 * `value` is what the result was written from, handed to in-process callers alongside the XML.
 */
export function queryResult(service: 'sts' | 'iam', action: string, result: string | undefined, meta: ResponseMeta, value?: unknown): Response {
  const body =
    `<${action}Response xmlns="${NAMESPACE[service]}">\n` +
    (result === undefined ? '' : `  <${action}Result>${result}</${action}Result>\n`) +
    `  <ResponseMetadata><RequestId>${meta.requestId}</RequestId></ResponseMetadata>\n` +
    `</${action}Response>\n`
  return xmlResponse(200, body, 'text/xml', meta, value)
}

/** An STS/IAM error: `ErrorResponse` with Type, Code, Message and RequestId. */
export function queryError(service: 'sts' | 'iam', error: CloudError, meta: ResponseMeta): Response {
  const type = error.status >= 500 ? 'Receiver' : 'Sender'
  const body =
    `<ErrorResponse xmlns="${NAMESPACE[service]}">\n` +
    `  <Error>\n    <Type>${type}</Type>\n    <Code>${escapeXml(error.code)}</Code>\n    <Message>${escapeXml(error.message)}</Message>\n  </Error>\n` +
    `  <RequestId>${meta.requestId}</RequestId>\n` +
    `</ErrorResponse>\n`
  return xmlResponse(error.status, body, 'text/xml', meta)
}

/** A successful EC2 answer, with its `requestId` element. */
export function ec2Result(action: string, body: string, meta: ResponseMeta): Response {
  const xml =
    `<?xml version="1.0" encoding="UTF-8"?>\n<${action}Response xmlns="${NAMESPACE.ec2}">\n` +
    `  <requestId>${meta.requestId}</requestId>\n  ${body}\n</${action}Response>`
  return xmlResponse(200, xml, 'text/xml;charset=UTF-8', meta)
}

/** An EC2 error: `Response/Errors/Error` and `RequestID`. */
export function ec2Error(error: CloudError, meta: ResponseMeta): Response {
  const xml =
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    `<Response><Errors><Error><Code>${escapeXml(error.code)}</Code><Message>${escapeXml(error.message)}</Message></Error></Errors>` +
    `<RequestID>${meta.requestId}</RequestID></Response>`
  return xmlResponse(error.status, xml, 'text/xml;charset=UTF-8', meta)
}

function xmlResponse(status: number, body: string, contentType: string, meta: ResponseMeta, value?: unknown): Response {
  return new LightResponse(body, {
    status,
    headers: { 'Content-Type': contentType, 'x-amzn-RequestId': meta.requestId, Date: meta.date.toUTCString() },
    ...(value !== undefined && { value }),
  })
}

/** The error an injected fault's status makes on the fake cloud, as the SDK reads it: one rule for the XML answer and a call in process. */
export function cloudFaultError(status: number): CloudError {
  const code = status === 429 ? 'Throttling' : status >= 500 ? 'InternalFailure' : 'InjectedFault'
  return new CloudError(code, 'Injected fault', status)
}

/** The body an injected fault answers with on the fake cloud: an AWS query-protocol error. */
export function cloudFaultResponse(status: number): Response {
  const { code, message } = cloudFaultError(status)
  const type = status >= 500 ? 'Receiver' : 'Sender'
  const body = `<ErrorResponse xmlns="${NAMESPACE.sts}"><Error><Type>${type}</Type><Code>${code}</Code><Message>${message}</Message></Error><RequestId>00000000-0000-4000-8000-000000000000</RequestId></ErrorResponse>`
  return new LightResponse(body, { status, headers: { 'Content-Type': 'text/xml' } })
}
