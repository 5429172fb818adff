import { errorKind } from '../core/doppel-error.ts'

/**
 * A command-line mistake, as the one line `doppel <command>: …`: printed without a stack, with a pointer
 * to `--help`; exit code 1. Every command throws this one class.
 */
export class UsageError extends errorKind('UsageError', 'DOPPEL_USAGE') {}

/** A command that cannot start (a port in use, an unreadable file): one line without a stack; exit code 1. */
export { StartupError } from '../faces/server/index.ts'
