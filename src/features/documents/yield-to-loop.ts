// The pause lives with the core (the control API's streamed answers take it too); documents use it from here.
export { loopYielder } from '../../core/yield-to-loop.ts'
