import { createPrivateKey, X509Certificate } from 'node:crypto'
import { lstatSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { readStartFile, StartFileError } from '../../core/read-start-file.ts'
import { replaceFileSync } from '../../core/replace-file.ts'
import { createCertificateAuthority, issueServerCertificate, type PemPair } from './tls-certificates.ts'

/** The certificate a TLS listener serves, and where its CA is when doppel made one. */
export interface TlsMaterial extends PemPair {
  /** The development CA's certificate file clients trust (absent for the user's own pair). */
  caFile?: string
  /** Whether the CA was made at this start (rather than read from the folder). */
  newCa?: boolean
  /** Removes what only this run needed: the temporary folder, if doppel made one. */
  close(): void
}

/** The folder under `--data-dir` that keeps the development CA across restarts. */
export const TLS_DIRECTORY = 'tls'

const FILES = { ca: 'ca.pem', caKey: 'ca-key.pem', cert: 'cert.pem', key: 'key.pem' } as const

/**
 * A development CA and a server certificate for `names`, as files (keys 0600) in `dir` or, without one, in
 * a temporary folder removed at `close`. A CA already in `dir` is used again while it stays valid for the
 * new certificate's life, so clients keep trusting a restarted server; the server certificate is issued at
 * every start (the names may have changed).
 */
export async function developmentTls(names: readonly string[], dir?: string): Promise<TlsMaterial> {
  const folder = dir ?? mkdtempSync(join(tmpdir(), 'doppel-tls-'))
  try {
    if (dir) {
      mkdirSync(dir, { recursive: true, mode: 0o700 })
      // As --data-dir's own files: written only into a folder, never through a link to one.
      if (lstatSync(dir).isSymbolicLink()) throw new Error(`${dir} is a link; doppel writes its keys only into a real folder`)
    }
    const kept = dir ? await readCa(dir) : undefined
    const ca = kept ?? createCertificateAuthority()
    if (!kept) {
      replaceFileSync(join(folder, FILES.caKey), ca.key, 0o600)
      replaceFileSync(join(folder, FILES.ca), ca.cert, 0o600)
    }
    const server = issueServerCertificate(ca, names)
    replaceFileSync(join(folder, FILES.key), server.key, 0o600)
    replaceFileSync(join(folder, FILES.cert), server.cert, 0o600)
    const close = () => {
      if (!dir) rmSync(folder, { recursive: true, force: true })
    }
    return { cert: server.cert, key: server.key, caFile: join(folder, FILES.ca), newCa: !kept, close }
  } catch (error) {
    if (!dir) rmSync(folder, { recursive: true, force: true })
    throw error
  }
}

/** PEM files are small: a certificate chain or a key is a few KiB, so 1 MiB refuses only what is not one. */
const PEM_FILE_LIMIT = 1024 * 1024

/** The user's own certificate (with its chain) and key, read from files (regular files of at most 1 MiB). */
export async function tlsFromFiles(certFile: string, keyFile: string): Promise<TlsMaterial> {
  // The OS's messages name the file; doppel's own (a FIFO, too large) are given its name.
  const read = (file: string) =>
    readStartFile(file, { limit: PEM_FILE_LIMIT }).catch((error: StartFileError) => {
      throw error.reason === 'EFILETYPE' || error.reason === 'EFBIG' ? new Error(`${file}: ${error.message}`) : error
    })
  return { cert: await read(certFile), key: await read(keyFile), close: () => {} }
}

/** The CA kept in `dir`, unless there is none or it expires within a server certificate's life. */
async function readCa(dir: string): Promise<PemPair | undefined> {
  let cert: string
  let key: string
  try {
    // Files doppel wrote itself: a link in their place is refused, not followed.
    cert = await readStartFile(join(dir, FILES.ca), { limit: PEM_FILE_LIMIT, noFollow: true })
    key = await readStartFile(join(dir, FILES.caKey), { limit: PEM_FILE_LIMIT, noFollow: true })
  } catch (error) {
    if (error instanceof StartFileError && error.reason === 'ENOENT') return undefined
    throw error
  }
  const parsed = new X509Certificate(cert)
  if (!parsed.ca || !parsed.checkPrivateKey(createPrivateKey(key))) throw new Error(`${join(dir, FILES.ca)} is not a CA certificate for ${join(dir, FILES.caKey)}`)
  return Date.parse(parsed.validTo) > Date.now() + 400 * 86_400_000 ? { cert, key } : undefined
}
