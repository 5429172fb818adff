// The real server scripts/real-server.sh started for this run (VAULT_ADDR, VAULT_TOKEN), or why there is none.
// Without one the tests skip; under CI=true they fail instead, as CI runs them inside the script.
export interface RealServer {
  addr: string
  token: string
}

export function realServer(): RealServer | undefined {
  const addr = process.env.VAULT_ADDR
  const token = process.env.VAULT_TOKEN
  if (addr && token) return { addr, token }
  const why = 'no real server: run these tests through scripts/real-server.sh (it sets VAULT_ADDR and VAULT_TOKEN)'
  if (process.env.CI === 'true') throw new Error(why)
  console.warn(`real-server tests skipped: ${why}`)
  return undefined
}
