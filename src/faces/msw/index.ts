/**
 * MSW handlers over an emulator instance (docs/in-process.md).
 *
 * @module doppel/msw
 */
export { createHandlers, type HandlerOptions } from './create-handlers.ts'
