export { createHandlers, type HandlerOptions } from './create-handlers.ts'
