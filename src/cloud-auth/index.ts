export { cloudAuth } from './cloud-auth-service.ts'
export { authFaultResponse } from './envelope.ts'
