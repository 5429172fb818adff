// The bench's sections, by the names a run prints and `npm run bench -- <section>` takes. Each module is
// imported when its section runs, so a refused argument costs no import of doppel.
import type { Figure } from './lib.ts'

export const sections: [name: string, title: string, run: () => Promise<Figure[]>][] = [
  ['in-process', 'MSW handlers against a no-op MSW handler', async () => (await import('./in-process.ts')).benchInProcess()],
  ['server', 'the standalone server under load, against two floors and the peers', async () => (await import('./server-load.ts')).benchServerLoad()],
  ['scale', '100k stored entries, tidy, memory', async () => (await import('./scale.ts')).benchScale()],
  ['soak', "memory after many logins' tokens expired", async () => (await import('./soak.ts')).benchSoak()],
  ['startup', 'import doppel and create an emulator, against importing msw', async () => (await import('./startup.ts')).benchStartup()],
  ['identity', 'pkcs7 identity documents, against node:crypto', async () => (await import('./identity-document.ts')).benchIdentityDocument()],
  ['tenants', 'memory per tenant, and reads spread over many', async () => (await import('./tenants.ts')).benchTenants()],
]
