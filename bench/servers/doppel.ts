// doppel's server as `doppel serve --quiet` runs it, with the benchmark's roles, instance and module;
// prints the port and the request bodies the load replays.
import type { AddressInfo } from 'node:net'
import { createDoppelServer } from '../../src/index.ts'
import { prepare } from '../fixtures.ts'

const { doppel, ...bodies } = await prepare()
const server = createDoppelServer(doppel)
server.listen(0, '127.0.0.1', () => process.stdout.write(JSON.stringify({ port: (server.address() as AddressInfo).port, ...bodies }) + '\n'))
process.on('SIGTERM', () => process.exit(0))
