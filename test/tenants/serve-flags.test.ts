import { describe, expect, it } from 'vitest'
import { serve } from '../../src/cli/serve-command.ts'
import { UsageError } from '../../src/cli/usage-error.ts'

const io = { stdout: () => undefined, stderr: () => undefined, cwd: process.cwd() }

describe('doppel serve tenant flags', () => {
  it('serves tenants by default, capped at 100 and dropped after 30 minutes idle', async () => {
    const handle = (await serve(['--port', '0', '--quiet'], io))!
    try {
      await fetch(`${handle.main.url}/t/job-1/_doppel/health`)
      const listing = await (await fetch(`${handle.main.url}/_doppel/tenants`)).json()
      expect(listing).toMatchObject({ max_tenants: 100, idle_timeout_seconds: 1800, tenants: [{ id: 'job-1', requests: 1 }] })
    } finally {
      await handle.close()
    }
  })

  it('takes --max-tenants and --tenant-idle-timeout; the cloud listener shares the tenants', async () => {
    const handle = (await serve(['--port', '0', '--cloud-port', '0', '--quiet', '--max-tenants', '1', '--tenant-idle-timeout', '90s'], io))!
    try {
      await (await fetch(`${handle.cloud!.url}/t/one/`, { method: 'POST' })).text()
      const refused = await fetch(`${handle.main.url}/t/two/_doppel/health`)
      expect(refused.status).toBe(429)
      const listing = await (await fetch(`${handle.main.url}/_doppel/tenants`)).json()
      expect(listing).toMatchObject({ max_tenants: 1, idle_timeout_seconds: 90, tenants: [{ id: 'one' }] })
    } finally {
      await handle.close()
    }
  })

  it('takes --tenant-heap-limit in MiB: past it a new tenant is refused with 429 naming the flag', async () => {
    const handle = (await serve(['--port', '0', '--quiet', '--tenant-heap-limit', '1'], io))!
    try {
      const refused = await fetch(`${handle.main.url}/t/new/_doppel/health`)
      expect(refused.status).toBe(429)
      expect(((await refused.json()) as { errors: string[] }).errors[0]).toMatch(/more than 1 MiB \(--tenant-heap-limit\)/)
    } finally {
      await handle.close()
    }
  })

  it('refuses bad values as usage errors', async () => {
    for (const args of [['--max-tenants', '-1'], ['--max-tenants', 'many'], ['--max-tenants', '1.5'], ['--tenant-idle-timeout', '0'], ['--tenant-idle-timeout', 'soon'], ['--tenant-heap-limit', '0'], ['--tenant-heap-limit', '1.5GB']]) {
      await expect(serve(['--port', '0', ...args], io), args.join(' ')).rejects.toThrow(UsageError)
    }
  })
})
