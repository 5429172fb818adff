/** How the auth service reaches the cloud provider: in process, or over real HTTP to a configured override. */
export { providerCalls } from './provider-calls.ts'
export type { Provider } from './provider-requests.ts'
export { journalCall, meetFault, NoAnswer } from './observed-call.ts'
export { IncompleteDescription } from './remote-provider.ts'
export { sendUpstream, isRetryable, UpstreamError, type UpstreamAnswer } from './upstream-http.ts'
