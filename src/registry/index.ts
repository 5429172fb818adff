export { registry } from './registry-service.ts'
export { registryFaultResponse } from './json-api.ts'
