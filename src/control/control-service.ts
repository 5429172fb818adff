import type { RequestContext } from '../core/glossary.ts'
import { NestingTooDeepError, parseJsonBounded } from '../core/bounded-parse.ts'
import { FaultError } from '../core/faults.ts'
import { jsonResponse, readBodyText, BodyTooLargeError } from '../core/http.ts'
import { DurationError } from '../core/duration.ts'
import { SNAPSHOT_PATH, snapshotRoute } from './snapshot-routes.ts'
import { dashboard } from '../dashboard/dashboard-route.ts'
import { tenantsControl } from '../tenants/tenants-control.ts'
import { hasManagementToken } from './management-token.ts'
import { OPENAPI_PATH, openApiRoute } from './openapi-route.ts'
import { redactEntries, redactSnapshot } from './redact.ts'
import { LightResponse } from '../core/light-response.ts'

const CONTROL_BODY_LIMIT = 8 * 1024 * 1024

function controlError(status: number, message: string): Response {
  return jsonResponse(status, { errors: [message] })
}

async function readJsonObject(request: Request): Promise<Record<string, unknown>> {
  const text = await readBodyText(request, CONTROL_BODY_LIMIT)
  if (text.trim() === '') return {}
  const value: unknown = parseJsonBounded(text)
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new SyntaxError('not an object')
  return value as Record<string, unknown>
}

function safeDecode(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment)
  } catch {
    return undefined
  }
}

/**
 * The control API under `/_doppel/`: the in-process powers (reset, clock, journal, faults, state) over
 * HTTP, for the standalone server and for scenario runs against it.
 */
export async function control(request: Request, context: RequestContext): Promise<Response> {
  const emulator = context.emulator
  const path = new URL(request.url).pathname.replace(/\/+$/, '')
  const method = request.method
  try {
    if (path === '/_doppel/health' && method === 'GET') return jsonResponse(200, { status: 'ok' })
    if (path === '/_doppel/reset' && method === 'POST') {
      emulator.reset()
      return new LightResponse(null, { status: 204 })
    }
    if (path === '/_doppel/clock') {
      if (method === 'POST') {
        const body = await readJsonObject(request)
        if (typeof body.advance === 'string' || typeof body.advance === 'number') emulator.clock.advance(body.advance)
        else if (typeof body.set === 'string') emulator.clock.set(body.set)
        else return controlError(400, 'Failed to move the clock: give "advance" (duration) or "set" (RFC 3339 time)')
      } else if (method !== 'GET') return controlError(405, 'unsupported operation')
      return jsonResponse(200, { now: emulator.clock.now().toISOString(), frozen: emulator.clock.frozen })
    }
    if (path === '/_doppel/journal' && method === 'GET') {
      const entries = emulator.journal.entries()
      const shown = hasManagementToken(request, context) ? entries : redactEntries(entries)
      return jsonResponse(200, { total: emulator.journal.total, limit: emulator.journal.limit, entries: shown })
    }
    if (path === '/_doppel/journal' && method === 'DELETE') {
      emulator.journal.clear()
      return new LightResponse(null, { status: 204 })
    }
    if (path === SNAPSHOT_PATH) return await snapshotRoute(request, context)
    if (path === '/_doppel/ui' || path.startsWith('/_doppel/ui/')) return await dashboard(request)
    if (path === '/_doppel/tenants' || path.startsWith('/_doppel/tenants/')) return tenantsControl(request, context, path)
    if (path === OPENAPI_PATH) return await openApiRoute(request, context)
    if (path === '/_doppel/state' && method === 'GET') {
      const snapshot = emulator.store.snapshot()
      return jsonResponse(200, hasManagementToken(request, context) ? snapshot : redactSnapshot(snapshot))
    }
    if (path === '/_doppel/fixtures' && method === 'POST') return await loadFixturesRoute(request, context)
    if (path === '/_doppel/faults') {
      if (method === 'POST') return jsonResponse(201, { id: emulator.faults.add(await readJsonObject(request)).id })
      if (method === 'GET') return jsonResponse(200, { faults: emulator.faults.list() })
      if (method === 'DELETE') {
        emulator.faults.clear()
        return new LightResponse(null, { status: 204 })
      }
      return controlError(405, 'unsupported operation')
    }
    const fault = /^\/_doppel\/faults\/([^/]+)$/.exec(path)
    if (fault && method === 'DELETE') {
      // Fault ids are plain text: an id that does not decode names no fault.
      const id = safeDecode(fault[1]!)
      return id !== undefined && emulator.faults.remove(id) ? new LightResponse(null, { status: 204 }) : controlError(404, 'no such fault')
    }
    return controlError(404, `unsupported path: ${method} ${path}`)
  } catch (error) {
    if (error instanceof NestingTooDeepError) return controlError(400, `error parsing JSON: ${error.message}`)
    if (error instanceof SyntaxError) return controlError(400, 'error parsing JSON')
    if (error instanceof BodyTooLargeError) return controlError(413, 'request body too large')
    if (error instanceof URIError) return controlError(400, 'invalid path: malformed percent-encoding')
    if (error instanceof FaultError || error instanceof DurationError || error instanceof RangeError) {
      return controlError(400, error.message)
    }
    throw error
  }
}

/**
 * `POST /_doppel/fixtures`: a YAML or JSON fixture body, loaded as `createDoppel({ fixtures })` would.
 * 201 with what was loaded; a bad fixture is 400 `{"errors":["<file>:<line>: <message>"]}` and nothing
 * is loaded. The loader is imported on first use (it brings the YAML parser and faker).
 */
async function loadFixturesRoute(request: Request, context: RequestContext): Promise<Response> {
  const text = await readBodyText(request, CONTROL_BODY_LIMIT)
  const file = new URL(request.url).searchParams.get('file') ?? 'fixtures'
  const { loadFixtures, FixtureError } = await import('../scenario/fixtures/index.ts')
  try {
    return jsonResponse(201, { loaded: await loadFixtures(context.emulator, text, file) })
  } catch (error) {
    if (error instanceof FixtureError) return jsonResponse(400, { errors: error.lines() })
    throw error
  }
}
