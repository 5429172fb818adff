declare module 'autocannon' {
  interface Result {
    requests: { average: number; total: number; sent: number }
    non2xx: number
    errors: number
  }
  function autocannon(options: Record<string, unknown>): Promise<Result>
  export default autocannon
}
