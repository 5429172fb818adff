// A peer to differ from: moto's server (moto[server] from the Python registry, started here on loopback) and
// doppel's fake cloud get the same sequence of STS, EC2 and IAM calls from the same SDK (boto3,
// python/cloud_differential.py), each side seeded with the same inventory its own way. The answers' shapes are
// compared — status, error code and type, content type, namespace, where the request id is, XML element names
// and order — ignoring the values each side makes up. Every difference is one of KNOWN_DIFFERENCES, each listed
// with its reason in docs/limits-and-differences.md; one that is not fails the test.
import { execFile, spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { comparedFields, shapeDifferences, type AnswerShape } from './answer-shapes.ts'
import { KNOWN_DIFFERENCES } from './moto-differences.ts'
import { CLIENTS_VENV, pythonModulesPresent, VENV_HINT, VENV_PYTHON } from './python-modules.ts'
import { startServe, type ServeProcess } from '../server/serve-process.ts'
import { stopGently } from './cloud-setup.ts'
import { closedPort } from '../support/closed-port.ts'

const APP = new URL('./python/cloud_differential.py', import.meta.url).pathname
const present = pythonModulesPresent(['moto.server', 'boto3'], VENV_PYTHON)
if (!present) console.warn(`moto differential skipped: ${VENV_PYTHON} is missing (${VENV_HINT})`)

const python = (args: string[], env: Record<string, string>) =>
  promisify(execFile)(VENV_PYTHON, [APP, ...args], { env: { PATH: process.env.PATH ?? '', HOME: '/nonexistent', ...env }, timeout: 120_000 }).then(
    ({ stdout }) => JSON.parse(stdout),
  )

describe.skipIf(!present)("doppel's fake cloud and moto's server, the same boto3 calls", () => {
  let moto: ChildProcess
  let serve: ServeProcess
  let motoAnswers: AnswerShape[]
  let doppelAnswers: AnswerShape[]

  beforeAll(async () => {
    const port = await closedPort()
    moto = spawn(`${CLIENTS_VENV}moto_server`, ['-H', '127.0.0.1', '-p', String(port)], { stdio: 'ignore' })
    serve = await startServe([])
    const motoUrl = `http://127.0.0.1:${port}`
    await until(() => fetch(`${motoUrl}/moto-api/`).then((r) => r.ok, () => false))
    const motoEndpoints = JSON.stringify({ sts: motoUrl, ec2: motoUrl, iam: motoUrl })
    const motoInventory = await python(['seed-moto'], { ENDPOINTS: motoEndpoints })

    const cloud = `${serve.url}/_doppel/cloud`
    const post = async (path: string, body: unknown) => {
      const response = await fetch(`${cloud}/${path}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) })
      expect(response.status).toBe(201)
      return response.json()
    }
    const user = await post('principals', { type: 'user', name: 'differential-user' })
    const role = await post('principals', { type: 'role', name: 'differential-role' })
    const instance = await post('instances', { region: 'us-east-1', iam_role_name: 'differential-app' })
    for (let more = 0; more < 5; more++) await post('instances', { region: 'us-east-1' })
    const doppelInventory = {
      user_name: 'differential-user',
      access_key_id: user.access_key_id,
      secret_access_key: user.secret_access_key,
      role_name: 'differential-role',
      role_arn: role.arn,
      profile_name: 'differential-app',
      instance_id: instance.instance_id,
    }
    const doppelEndpoints = JSON.stringify({ sts: `${cloud}/sts`, ec2: `${cloud}/ec2`, iam: `${cloud}/iam` })
    ;[motoAnswers, doppelAnswers] = await Promise.all([
      python([], { ENDPOINTS: motoEndpoints, INVENTORY: JSON.stringify(motoInventory) }),
      python([], { ENDPOINTS: doppelEndpoints, INVENTORY: JSON.stringify(doppelInventory) }),
    ])
  }, 180_000)
  afterAll(async () => {
    await stopGently(serve)
    if (moto && moto.exitCode === null && moto.signalCode === null) {
      moto.kill('SIGTERM')
      await once(moto, 'exit')
    }
  })

  it('answer in the same shapes, but for the differences docs/limits-and-differences.md lists', () => {
    expect(doppelAnswers.map((a) => a.call)).toEqual(motoAnswers.map((a) => a.call))
    const differences = Object.fromEntries(
      motoAnswers.map((answer, index) => [answer.call, shapeDifferences(answer, doppelAnswers[index]!)] as const).filter(([, found]) => found.length > 0),
    )
    const fields = motoAnswers.reduce((sum, answer, index) => sum + new Set([...comparedFields(answer), ...comparedFields(doppelAnswers[index]!)]).size, 0)
    console.info(`moto differential: ${motoAnswers.length} calls, ${fields} element paths compared, ${Object.keys(differences).length} calls differ`)
    expect(differences).toEqual(KNOWN_DIFFERENCES)
  })
})

async function until(ready: () => Promise<boolean>): Promise<void> {
  for (const started = Date.now(); Date.now() - started < 60_000; await new Promise((resolve) => setTimeout(resolve, 200))) {
    if (await ready()) return
  }
  throw new Error("moto's server did not answer within 60 s")
}
