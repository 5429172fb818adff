// The second process of the server benchmark: runs autocannon against one URL and prints its result.
import autocannon from 'autocannon'

const config = JSON.parse(process.argv[2]!)
const result = await autocannon({ connections: 16, pipelining: 1, duration: 3, ...config })
process.stdout.write(JSON.stringify({ rps: result.requests.average, non2xx: result.non2xx, errors: result.errors, total: result.requests.total }))
