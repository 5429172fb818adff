export { control } from './control-service.ts'
