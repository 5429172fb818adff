export { control, controlAccess, controlBodyTypes, type ControlOptions } from './control-service.ts'
export { callControl, type ControlResult } from './call-control.ts'
export { JSON_TYPES } from './control-body.ts'
