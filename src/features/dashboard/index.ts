export { dashboard } from './dashboard-route.ts'
