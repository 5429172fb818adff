import { describe, expect, it } from 'vitest'
import { calculateTtl, sanitisePolicies } from './issue-auth.ts'

/** An untuned mount's lease TTLs: the system's, 768h. */
const SYSTEM = { defaultTtl: 2764800, maxTtl: 2764800 }

describe('token TTL as the core computes it', () => {
  it('uses the mount default without a role TTL, capped by the backend max with the warning', () => {
    expect(calculateTtl(SYSTEM, 0, 0, 0, 0)).toEqual({ ttl: 2764800, warnings: [] })
    expect(calculateTtl(SYSTEM, 0, 0, 5400, 0)).toEqual({
      ttl: 5400,
      warnings: ['TTL of "768h" exceeded the effective max_ttl of "1h30m"; TTL value is capped accordingly'],
    })
    expect(calculateTtl(SYSTEM, 600, 0, 5400, 300)).toEqual({
      ttl: 300,
      warnings: ['TTL of "10m" exceeded the effective max_ttl of "5m"; TTL value is capped accordingly'],
    })
  })

  it("takes a tuned mount's default and max", () => {
    const tuned = { defaultTtl: 1800, maxTtl: 3600 }
    expect(calculateTtl(tuned, 0, 0, 0, 0)).toEqual({ ttl: 1800, warnings: [] })
    expect(calculateTtl(tuned, 7200, 0, 0, 0).ttl).toBe(3600)
    expect(calculateTtl(tuned, 7200, 0, 5400, 0).ttl).toBe(3600)
  })

  it('uses the period when set, capped with the period warning', () => {
    expect(calculateTtl(SYSTEM, 60, 600, 0, 0)).toEqual({ ttl: 600, warnings: [] })
    expect(calculateTtl(SYSTEM, 0, 7200, 3600, 0)).toEqual({
      ttl: 3600,
      warnings: ['period of "2h" exceeded the effective max_ttl of "1h"; period value is capped accordingly'],
    })
  })
})

describe('policy sanitising', () => {
  it('lower-cases, de-duplicates, sorts and adds default; root stands alone', () => {
    expect(sanitisePolicies([' Dev', 'ops', '', 'dev'], true)).toEqual(['default', 'dev', 'ops'])
    expect(sanitisePolicies(['dev'], false)).toEqual(['dev'])
    expect(sanitisePolicies(['dev', 'ROOT'], true)).toEqual(['root'])
  })
})
