import type { ControlRoute } from '../../core/routing/index.ts'
import { dashboard } from './dashboard-route.ts'

/** The dashboard's static files: a browser opening a page cannot send a token; the page's own calls do. */
export const DASHBOARD_ROUTES: readonly ControlRoute[] = [
  { method: 'GET', path: '/_doppel/ui', access: 'open', run: (call) => dashboard(call.request) },
  { method: 'HEAD', path: '/_doppel/ui', access: 'open', run: (call) => dashboard(call.request) },
  { method: 'GET', path: '/_doppel/ui/*', access: 'open', run: (call) => dashboard(call.request) },
  { method: 'HEAD', path: '/_doppel/ui/*', access: 'open', run: (call) => dashboard(call.request) },
]
