import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { createDoppelServer, listen } from '../src/index.ts'
import { prepare } from './fixtures.ts'
const p = await prepare()
await p.doppel.fetch('http://x/v1/auth/cloud/role/load-bench', { method: 'POST', headers: { 'x-service-token': 'root' }, body: JSON.stringify({ auth_type: 'ec2', bound_ami_id: 'ami-0bbbb000000000001' }) })
const server = await listen(createDoppelServer(p.doppel), 0, '127.0.0.1')
const { stdout } = await promisify(execFile)(process.execPath, ['bench/load-client.ts', JSON.stringify({ url: `${server.url}/v1/auth/cloud/role/load-bench`, headers: { 'x-service-token': 'root' }, duration: 4 })])
console.log(stdout)
await server.close()
