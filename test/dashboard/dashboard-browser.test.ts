import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { existsSync, mkdirSync } from 'node:fs'
import { chromium, type Browser, type Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'

// The dashboard in a real browser: Debian's chromium, headless, driven by playwright-core, against a real
// `doppel serve`. Every assertion about the server goes through the control API, not the page.
const BIN = new URL('../../bin/doppel.js', import.meta.url).pathname
const FIXTURES = new URL('../../scenarios/fixtures/example.yaml', import.meta.url).pathname
const SHOTS = new URL('../../test-results/', import.meta.url).pathname
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync']
const POLL = { timeout: 10_000, interval: 50 }
const START = '2030-01-01T00:00:00.000Z'

// CI installs chromium (.ci/run), so there a missing browser is a failure, not a skip.
const present = existsSync(CHROMIUM) || process.env.CI === 'true'
if (!present) console.warn(`dashboard browser test skipped: no chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)`)

describe.skipIf(!present)('dashboard in headless chromium through doppel serve', () => {
  let child: ChildProcess
  let url: string
  let browser: Browser
  let page: Page
  let problems: string[] = []
  let exited: string | undefined

  beforeAll(async () => {
    child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--quiet', '--fixtures', FIXTURES, '--seed', '1', '--clock-start', START, '--frozen-clock'], {
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    child.on('exit', (code, signal) => (exited = `doppel serve exited early (code ${code}, signal ${signal})`))
    const [line] = (await once(child.stdout!, 'data')) as [Buffer]
    url = /^doppel listening on (http:\/\/\S+)\n$/.exec(line.toString())![1]!
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS })
    // One page for the file: each test navigates afresh, which is all the isolation a read-mostly page needs.
    page = await (await browser.newContext()).newPage()
    page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`))
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console: ${message.text()}`)
    })
    mkdirSync(SHOTS, { recursive: true })
  })
  afterAll(async () => {
    await browser?.close()
    child?.kill()
  })
  beforeEach(async () => {
    await api('POST', '/_doppel/reset')
    problems = []
  })
  afterEach(() => {
    expect(problems).toEqual([])
  })

  async function api(method: string, path: string, body?: unknown): Promise<any> {
    if (exited) throw new Error(exited)
    const response = await fetch(`${url}${path}`, {
      method,
      headers: { 'X-Service-Token': 'root', ...(body !== undefined && { 'Content-Type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    const text = await response.text()
    return text === '' ? undefined : JSON.parse(text)
  }

  /** Opens the page and waits for its first load from the control API. */
  async function open(path = '/_doppel/ui/') {
    await page.goto(`${url}${path}`)
    await shown('#status', /^Updated/)
  }

  /** Waits until an element under `selector` shows `text` (Playwright's own waiting, on a busy machine too). */
  const shown = (selector: string, text: string | RegExp) => page.locator(selector).filter({ hasText: text }).first().waitFor({ timeout: 10_000 })

  /** A screenshot of one view, cut at 1600 px: the records view alone can be several screens long. */
  async function shot(name: string, selector: string) {
    await page.evaluate(() => window.scrollTo(0, 0)) // so that the box is in page coordinates
    const box = (await page.locator(selector).boundingBox())!
    await page.screenshot({ path: `${SHOTS}dashboard-${name}.png`, fullPage: true, clip: { ...box, height: Math.min(box.height, 1600) } })
  }

  it('renders stored records by service, the clock and a journal entry after a request', async () => {
    await api('GET', '/v1/auth/cloud/role/web')
    await open()
    const records = page.locator('#records')
    await expect.poll(() => records.getByRole('heading', { name: 'cloud-auth', exact: true }).count(), POLL).toBe(1)
    await expect.poll(() => records.getByRole('heading', { name: 'registry', exact: true }).count(), POLL).toBe(1)
    expect(await records.getByRole('rowheader', { name: 'web', exact: true }).count()).toBe(1)
    expect(await records.getByText('Uses a removed provider argument; upgrade to 1.1.0').count()).toBeGreaterThan(0)
    expect(await page.locator('#clock-now').textContent()).toBe(START)

    const rows = page.locator('#journal-rows tr')
    await shown('#journal-rows tr', 'GET /v1/auth/cloud/role/web')
    expect(await rows.first().textContent()).toContain('200 success')
    await page.getByLabel('Status').selectOption('4')
    expect(await rows.first().textContent()).toBe('No request matches the filters.')
    await page.getByLabel('Status').selectOption('')
    await page.getByLabel('Path contains').fill('/role/web')
    expect(await rows.count()).toBe(1)
    await shot('records', '#records')
    await shot('journal', '#journal')
  })

  it('advances and sets the emulator clock from the page, by keyboard', async () => {
    await open()
    await page.getByLabel(/^Advance by/).focus()
    await page.keyboard.type('73h')
    await page.keyboard.press('Enter')
    await shown('#clock-now', '2030-01-04T01:00:00.000Z')
    expect((await api('GET', '/_doppel/clock')).now).toBe('2030-01-04T01:00:00.000Z')
    await page.getByLabel(/^Set to/).fill('2031-06-01T12:00:00Z')
    await page.getByRole('button', { name: 'Set', exact: true }).click()
    await expect.poll(async () => (await api('GET', '/_doppel/clock')).now, POLL).toBe('2031-06-01T12:00:00.000Z')
    await page.getByLabel(/^Advance by/).fill('soon')
    await page.getByRole('button', { name: 'Advance' }).click()
    await shown('#clock-error', /^400: /)
    // Chromium logs every 4xx fetch as a console error; this one was asked for.
    problems = problems.filter((problem) => !problem.includes('status of 400'))
    await shot('clock', '#clock')
  })

  it('adds a fault that the server then applies, and removes it', async () => {
    await open()
    await page.getByLabel('Path pattern').fill('/v1/auth/cloud/*')
    await page.getByLabel('Value').fill('503')
    await page.getByRole('button', { name: 'Add fault' }).click()
    await expect.poll(async () => (await api('GET', '/_doppel/faults')).faults.length, POLL).toBe(1)
    const [fault] = (await api('GET', '/_doppel/faults')).faults
    expect(fault).toMatchObject({ path: '/v1/auth/cloud/*', status: 503 })
    const faulted = await fetch(`${url}/v1/auth/cloud/role/web`, { headers: { 'X-Service-Token': 'root' } })
    expect(faulted.status).toBe(503)
    await page.getByRole('button', { name: 'Refresh' }).click()
    await shown('#fault-rows', 'status 503')
    await shot('faults', '#faults')
    await page.getByRole('button', { name: `Remove fault ${fault.id}` }).click()
    await expect.poll(async () => (await api('GET', '/_doppel/faults')).faults.length, POLL).toBe(0)
  })

  it('loads fixtures, resets, and lists tenants with links to their own dashboards', async () => {
    await open()
    await page.getByLabel('or paste it').fill(JSON.stringify({ registry: { organizations: ['globex'] } }))
    await page.getByRole('button', { name: 'Load fixtures' }).click()
    await expect.poll(async () => Object.keys((await api('GET', '/_doppel/state'))['registry.organizations']), POLL).toContain('globex')
    await shot('fixtures', '#fixtures')
    await page.getByRole('button', { name: 'Reset emulator' }).click()
    await expect.poll(async () => Object.keys((await api('GET', '/_doppel/state'))['registry.organizations']), POLL).toEqual(['acme'])

    await api('GET', '/t/job-7/_doppel/health')
    await page.getByRole('button', { name: 'Refresh' }).click()
    await shown('#tenant-rows', 'job-7')
    await shot('tenants', '#tenants')
    await page.getByRole('link', { name: 'job-7' }).click()
    await shown('h1', 'doppel tenant job-7')
    expect(new URL(page.url()).pathname).toBe('/t/job-7/_doppel/ui/')
    await shown('#clock-now', START)
    expect(await page.locator('#tenants').isHidden()).toBe(true)
    await page.getByLabel(/^Advance by/).fill('1h')
    await page.getByRole('button', { name: 'Advance' }).click()
    await expect.poll(async () => (await api('GET', '/t/job-7/_doppel/clock')).now, POLL).toBe('2030-01-01T01:00:00.000Z')
    expect((await api('GET', '/_doppel/clock')).now).toBe(START)
    await api('DELETE', '/_doppel/tenants/job-7')
  })
})

describe.skipIf(!present)('dashboard beyond loopback, with the control token in the address', () => {
  let child: ChildProcess
  let port: string
  let browser: Browser

  beforeAll(async () => {
    // Bound to all interfaces so the control API wants a token; the browser still talks to 127.0.0.1.
    child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--quiet', '--host', '0.0.0.0', '--root-token', 'not-root', '--control-token', 'ui-token'], {
      stdio: ['ignore', 'pipe', 'ignore'],
    })
    const [line] = (await once(child.stdout!, 'data')) as [Buffer]
    port = /:(\d+)\n$/.exec(line.toString())![1]!
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS })
  })
  afterAll(async () => {
    await browser?.close()
    child?.kill()
  })

  it('loads with #token=, keeps the token out of the address bar, and its calls pass the token check', async () => {
    const state = await fetch(`http://127.0.0.1:${port}/_doppel/state`)
    expect(state.status).toBe(401)
    const page = await (await browser.newContext()).newPage()
    const problems: string[] = []
    page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`))
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console: ${message.text()}`)
    })
    await page.goto(`http://127.0.0.1:${port}/_doppel/ui/#token=ui-token`)
    await page.locator('#status').filter({ hasText: /^Updated/ }).first().waitFor({ timeout: 10_000 })
    expect(page.url()).toBe(`http://127.0.0.1:${port}/_doppel/ui/`)
    await page.reload()
    await page.locator('#status').filter({ hasText: /^Updated/ }).first().waitFor({ timeout: 10_000 })
    expect(problems).toEqual([])
  })
})
