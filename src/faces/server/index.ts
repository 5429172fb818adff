/** The HTTP server: `startDoppelServer` (what `doppel serve` runs), `createDoppelServer` and its TLS material. */
export { createDoppelServer, listen, type RunningServer, type ServerOptions } from './doppel-server.ts'
export { writePidFile } from './pid-file.ts'
export { startDoppelServer, type DoppelServer, type DoppelServerOptions } from './start-doppel-server.ts'
export { StartupError } from './startup-error.ts'
export { createCertificateAuthority, issueServerCertificate, type IssuedServerCertificate, type PemPair } from './tls-certificates.ts'
export { createRequestGuard } from './request-guard.ts'
