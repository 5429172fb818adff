import { errorKind } from '../../core/doppel-error.ts'

/** A server (or command) that cannot start (a port in use, an unreadable file): one line without a stack. */
export class StartupError extends errorKind('StartupError', 'DOPPEL_STARTUP') {}
