import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { createDoppel } from '../../src/features/doppel/index.ts'
import { createTarget, findScenarioFiles, loadFixtureFile, loadScenarioFile, runScenarios } from '../../src/faces/scenario/index.ts'
const files = findScenarioFiles(['scenarios'], process.cwd())

describe('shipped scenarios', () => {
  it('are the flows users can copy, each declaring its schema for editors', () => {
    expect(files.map((f) => f.slice(f.indexOf('scenarios/')))).toEqual(
      expect.arrayContaining([
        'scenarios/cloud-auth/ec2-login.yaml',
        'scenarios/cloud-auth/iam-login-server-id.yaml',
        'scenarios/cloud-auth/roles-crud.yaml',
        'scenarios/cloud-auth/rotate-root.yaml',
        'scenarios/cloud-auth/tidy-access-list.yaml',
        'scenarios/registry/deprecate-and-revert.yaml',
      ]),
    )
    for (const file of [...files, 'scenarios/fixtures/example.yaml']) {
      expect(readFileSync(file, 'utf8').split('\n')[0]).toMatch(/^# yaml-language-server: \$schema=\.\.\/\.\.\/schemas\/(scenario|fixture)\.schema\.json$/)
    }
  })

  it('pass end to end on the emulator', async () => {
    const scenarios = files.map((file) => loadScenarioFile(file))
    const result = await runScenarios(scenarios, { target: await createTarget('emulator') })
    const problems = result.scenarios.flatMap((s) =>
      s.steps.filter((step) => step.verdict !== 'passed').map((step) => `${s.file}:${step.line} ${step.title}: ${step.reason ?? JSON.stringify(step.mismatches)}`),
    )
    expect(problems).toEqual([])
    expect([result.passed, result.failed, result.skipped]).toEqual([files.length, 0, 0])
  })

  it('give the same responses for the same seed (deterministic emulator instances)', async () => {
    const scenario = loadScenarioFile('scenarios/cloud-auth/roles-crud.yaml')
    const bodies = async () => {
      const result = await runScenarios([scenario], { target: await createTarget({ kind: 'emulator', seed: 5 }), runId: 'same' })
      return result.scenarios[0]!.steps.map((s) => s.observed?.body)
    }
    expect(await bodies()).toEqual(await bodies())
  })

  it('the example fixture loads into a fresh emulator', async () => {
    const summary = await loadFixtureFile(createDoppel({ seed: 1 }), 'scenarios/fixtures/example.yaml')
    expect(summary).toMatchObject({
      roles: ['web', 'deployer'],
      organizations: ['acme'],
      modules: ['acme/vpc/aws', 'acme/bucket/aws'],
      versions: 3,
      accounts: ['123456789012', '210987654321'],
    })
    expect(summary.instances.map((i) => [i.instance_id, i.state])).toEqual([
      ['i-0123456789abcdef0', 'running'],
      ['i-0fedcba9876543210', 'stopped'],
    ])
    expect(summary.principals.map((p) => p.arn)).toEqual(['arn:aws:iam::123456789012:user/deployer', 'arn:aws:iam::123456789012:role/ci/ci-runner'])
  })
})
