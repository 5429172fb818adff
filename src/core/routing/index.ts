export { mount, routeTemplate, type RouteMatch, type RouteRow } from './route-row.ts'
export { RouteTable, type RouteTableOptions } from './route-table.ts'
export {
  act,
  CONTROL_BODY_LIMITS,
  created,
  noContentAnswer,
  ok,
  refused,
  type BodySpec,
  type ControlAccess,
  type ControlAnswer,
  type ControlCall,
  type ControlRoute,
} from './control-route.ts'
export { errorsEnvelope, type ServiceUrls } from './service-urls.ts'
