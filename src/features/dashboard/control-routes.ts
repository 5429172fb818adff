import { mount, type ControlRoute } from '../../core/routing/index.ts'
import { CONTROL_PREFIX } from '../../services/control/urls.ts'
import { dashboard } from './dashboard-route.ts'

/** The dashboard's static files: a browser opening a page cannot send a token; the page's own calls do. */
export const DASHBOARD_ROUTES: readonly ControlRoute[] = mount(CONTROL_PREFIX, [
  { method: 'GET', path: 'ui', access: 'open', run: (call) => dashboard(call.request) },
  { method: 'HEAD', path: 'ui', access: 'open', run: (call) => dashboard(call.request) },
  { method: 'GET', path: 'ui/*', access: 'open', run: (call) => dashboard(call.request) },
  { method: 'HEAD', path: 'ui/*', access: 'open', run: (call) => dashboard(call.request) },
])
