export { control, controlAccess, controlBodyTypes, type ControlOptions, type ControlTable } from './control-service.ts'
export { callControl, type ControlHost, type ControlResult } from './call-control.ts'
export { JSON_TYPES } from './control-body.ts'
export { hasManagementToken } from './management-token.ts'
