import type { Emulator } from './emulator.ts'
import type { Service } from './glossary.ts'
import type { ControlRoute, ServiceUrls } from './routing/index.ts'
import type { OpenApiDescription } from './openapi-schema.ts'
import type { DomainCodec } from './snapshot/index.ts'

/**
 * One service, whole, as the floors above see it (its `index.ts` exports it; `features/doppel/services.ts`
 * lists them): the router, the control table, the snapshot document and the OpenAPI document are maps over
 * these, so a service is added in one place. Light: the service's own code loads on its first request.
 */
export interface ServiceDescriptor<Name extends string = string, Options = unknown, Key extends string = never> {
  readonly name: Name
  /** Its paths and host names (`urls.ts`). */
  readonly urls: ServiceUrls<Name>
  /** Where it answers, in a sentence's words, for the hint of a path no service owns; none for a service reached otherwise. */
  readonly where?: string
  /** The service itself, imported on first use. */
  load(): Promise<Service>
  /** The body an injected fault answers with on it. */
  fault(status: number): Response
  /** Its set-up routes under `/_doppel/`, answered by the control API. */
  readonly controlRoutes: readonly ControlRoute[]
  /** How its state goes into a snapshot and back, one codec per domain it keeps. */
  readonly codecs: readonly DomainCodec[]
  /** Its part of doppel's OpenAPI document (tagged with its name), imported on first use; none for a service the document leaves out. */
  openApi?(): Promise<OpenApiDescription>
  /** The options `createDoppel` takes for it, under a name of its own; none for a service that takes none. */
  readonly options?: ServiceOptionsSpec<Key, Options>
}

/**
 * How a service takes its options: `createDoppel({ [key]: {…} })`, checked by the service and kept under its
 * name (`EmulatorOptions.services`), where the service reads them (`serviceOptions`).
 */
interface ServiceOptionsSpec<Key extends string, Options> {
  /** The `createDoppel` option that holds them (`cloudAuth`). */
  readonly key: Key
  /** Top-level `createDoppel` options of an earlier release that now belong here; still read, deprecated. */
  readonly deprecatedKeys?: readonly string[]
  /** The options the service reads, from what a caller gave; throws a TypeError or RangeError naming a bad one. */
  check(given: Readonly<Record<string, unknown>>): Options
}

/** The options an emulator keeps for a service under its name (`EmulatorOptions.services`). */
export function serviceOptions<Options>(emulator: Emulator, name: string): Options {
  return (emulator.services[name] ?? {}) as Options
}

/** Refuses an option `where` does not take (a misspelt key would otherwise be ignored without a word). */
export function refuseUnknownOptions(given: Readonly<Record<string, unknown>>, known: readonly string[], where: string): void {
  const unknown = Object.keys(given).find((key) => !known.includes(key))
  if (unknown !== undefined) throw new TypeError(`${where} takes no option "${unknown}" (it takes ${known.map((key) => `"${key}"`).join(', ')})`)
}
