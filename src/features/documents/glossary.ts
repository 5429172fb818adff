/** Shared types of the files users write (scenarios, fixtures, targets): where a value sits and on which line. */

/** A path into a parsed YAML/JSON value: keys and array indexes. */
export type ValuePath = (string | number)[]

/** Maps a path inside a file to its 1-based line (0 when the source has no lines, e.g. an object). */
export type Locate = (path: ValuePath, at?: 'key' | 'value') => number
