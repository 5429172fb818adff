export { control, controlAccess, controlBodyTypes, type ControlOptions } from './control-service.ts'
export { callControl, type ControlResult } from './call-control.ts'
export { CONTROL_BODY_LIMITS } from './control-body.ts'
