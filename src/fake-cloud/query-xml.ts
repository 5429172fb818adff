/** The body an injected fault answers with on the fake cloud: an AWS query-protocol error. */
export function cloudFaultResponse(status: number): Response {
  const code = status === 429 ? 'Throttling' : status >= 500 ? 'InternalFailure' : 'InjectedFault'
  const type = status >= 500 ? 'Receiver' : 'Sender'
  const body = `<ErrorResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/"><Error><Type>${type}</Type><Code>${code}</Code><Message>Injected fault</Message></Error><RequestId>00000000-0000-4000-8000-000000000000</RequestId></ErrorResponse>`
  return new Response(body, { status, headers: { 'Content-Type': 'text/xml' } })
}
