import { parseDuration } from '../../../core/duration.ts'
import type { Observed, RequestSummary, Step } from '../glossary.ts'
import type { Explanation } from '../../../core/explanation.ts'
import { signedCallerIdentity, type PrincipalCredentials } from '../targets/caller-identity.ts'
import type { InspectTopic, Target, TargetSession } from '../targets/target.ts'
import { buildRequest, observeResponse, summarizeRequest, type RequestArgs } from './http-exchange.ts'

export interface ActionContext {
  target: Target
  session: TargetSession
  /** Loads the scenario's fixtures again (after a reset). */
  reloadFixtures: () => Promise<void>
}

export interface ActionOutcome {
  observed: Observed
  request?: RequestSummary
  /** Why the target refused the request, asked only when the step fails. */
  explain?: () => Promise<Explanation | undefined>
}

/** Runs one step's action (arguments already templated) and presents its result as a response. */
export async function performAction(step: Step, args: unknown, context: ActionContext): Promise<ActionOutcome> {
  const { control } = context.session
  const ok = (body: unknown): ActionOutcome => ({ observed: { status: 200, headers: {}, body: body ?? null } })
  const input = (args ?? {}) as Record<string, unknown>
  switch (step.action) {
    case 'request': {
      const requestArgs = args as RequestArgs
      const request = buildRequest(requestArgs, context.session.info)
      const sentBody =
        requestArgs.bodyBase64 !== undefined ? `<${Buffer.from(requestArgs.bodyBase64, 'base64').length} bytes, base64 in the scenario>` : request.body ? await request.clone().text() : undefined
      const summary = summarizeRequest(request, sentBody)
      const sent = { method: request.method, url: request.url }
      const response = await context.session.send(request)
      const explain = context.session.explain
      return { observed: await observeResponse(response), request: summary, ...(explain && { explain: () => explain(sent, response) }) }
    }
    case 'cloud.identityDocument': {
      const format = (input.format as string | undefined) ?? 'rsa2048'
      const instanceId = input.instance_id as string
      const value = await control.identityDocument(instanceId, format)
      // Ready for login: signatures without their 76-column line feeds, the document also as base64.
      const document = format === 'document'
      return ok({
        value,
        format,
        instance_id: instanceId,
        [format]: document ? value : value.replace(/\r?\n/g, ''),
        ...(document && { identity: Buffer.from(value).toString('base64') }),
      })
    }
    case 'cloud.signedCallerIdentity':
      return ok(
        signedCallerIdentity({
          credentials: input.principal as PrincipalCredentials,
          now: await control.now(),
          serverIdHeader: context.session.info.serverIdHeader,
          ...(input.serverId !== undefined && { serverId: String(input.serverId) }),
          ...(input.region !== undefined && { region: String(input.region) }),
          ...(input.host !== undefined && { host: String(input.host) }),
          ...(input.service !== undefined && { service: String(input.service) }),
          ...(input.method !== undefined && { method: input.method as 'POST' | 'GET' }),
          ...(input.headers !== undefined && { headers: input.headers as Record<string, string> }),
        }),
      )
    case 'cloud.setInstanceState':
      return ok(await control.setInstanceState(input.instance_id as string, input.state as string))
    case 'cloud.createInstance':
      return ok(await control.createInstance(input))
    case 'cloud.getInstance':
      return ok(await control.getInstance(input.instance_id as string))
    case 'cloud.createPrincipal':
      return ok(await control.createPrincipal(input))
    case 'cloud.deletePrincipal':
      await control.deletePrincipal(String(args))
      return ok({ deleted: String(args) })
    case 'clock.advance': {
      const by = args as string | number
      if (context.target.capabilities.has('clock')) await control.advanceClock(by)
      else await new Promise((resolve) => setTimeout(resolve, parseDuration(by, { allowFraction: true }) * 1000))
      return ok({ now: (await control.now()).toISOString() })
    }
    case 'clock.set':
      await control.setClock(String(args))
      return ok({ now: (await control.now()).toISOString() })
    case 'reset':
      await control.reset()
      await context.reloadFixtures()
      return ok(null)
    case 'inspect':
      return ok(await control.inspect(args as InspectTopic))
    case 'faults':
      if (input.add !== undefined) return ok(await control.addFault(input.add as Record<string, unknown>))
      if (input.remove !== undefined) await control.removeFault(String(input.remove))
      else await control.clearFaults()
      return ok(null)
  }
}
