export { DASHBOARD_ROUTES } from './control-routes.ts'
