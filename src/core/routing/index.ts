export { routeTemplate, type RouteMatch, type RouteRow } from './route-row.ts'
export { RouteTable, type RouteTableOptions } from './route-table.ts'
