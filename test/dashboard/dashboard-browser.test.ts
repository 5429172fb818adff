import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { existsSync, mkdirSync } from 'node:fs'
import { chromium, type Browser, type Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'

// The dashboard in a real browser: Debian's chromium, headless, driven by playwright-core, against a real
// `doppel serve`. Every assertion about the server goes through the control API, not the page. Each view's
// test saves a screenshot: under test-results/, or with DOPPEL_DOCS_SCREENSHOTS=1 over the ones
// docs/dashboard.md shows (a plain run leaves the tracked images alone: durations and ports differ per run).
const BIN = new URL('../../bin/doppel.js', import.meta.url).pathname
const FIXTURES = new URL('../../scenarios/fixtures/example.yaml', import.meta.url).pathname
const SHOTS = new URL(process.env.DOPPEL_DOCS_SCREENSHOTS === '1' ? '../../docs/images/' : '../../test-results/', import.meta.url).pathname
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync']
const POLL = { timeout: 10_000, interval: 50 }
const START = '2030-01-01T00:00:00.000Z'
const LAPTOP = { width: 1366, height: 768 }

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
    // One page for the file, at a laptop's size: each test navigates afresh, which is all the isolation a
    // read-mostly page needs.
    page = await (await browser.newContext({ viewport: LAPTOP })).newPage()
    // A missing element fails its step with a message, well before the test's own timeout.
    page.setDefaultTimeout(10_000)
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

  /** An ec2 login to role web with the identity document of `instance`, signed by the fake cloud. */
  async function ec2Login(instance: string): Promise<number> {
    const { value } = await api('POST', '/_doppel/cloud/identity-document', { instance_id: instance })
    const response = await fetch(`${url}/v1/auth/cloud/login`, { method: 'POST', body: JSON.stringify({ role: 'web', pkcs7: value, nonce: 'n-1' }) })
    await response.arrayBuffer()
    return response.status
  }

  /** An instance the role web refuses: its AMI is not the role's bound_ami_id. */
  const otherAmi = () => api('POST', '/_doppel/cloud/instances', { instance_id: 'i-0aaaaaaaaaaaaaaa1', ami_id: 'ami-0def5678', account_id: '123456789012', region: 'us-east-1' })

  /** Opens a page of the dashboard and waits for its load from the control API. */
  async function open(fragment = '') {
    // From a blank page, so that a change of fragment alone still loads the page afresh.
    await page.goto('about:blank')
    await page.goto(`${url}/_doppel/ui/${fragment}`)
    await shown('#status', /^Updated/)
  }

  /** Refreshes as the 2-second timer does (focus stays where it is) and waits until the page is redrawn. */
  async function refreshFromScript() {
    await page.evaluate(() => {
      document.getElementById('status')!.textContent = ''
      document.getElementById('refresh')!.click()
    })
    await shown('#status', /^Updated/)
  }

  /** Waits until an element under `selector` shows `text` (Playwright's own waiting, on a busy machine too). */
  const shown = (selector: string, text: string | RegExp) => page.locator(selector).filter({ hasText: text }).first().waitFor({ timeout: 10_000 })

  /** The text of an element, details closed or open alike. */
  const textOf = (selector: string) => page.locator(selector).evaluate((node) => node.textContent ?? '')

  /** A screenshot of the page as shown (at most 1600 px long) for docs/dashboard.md. */
  async function shot(name: string) {
    await page.evaluate(() => window.scrollTo(0, 0))
    const height = await page.evaluate(() => Math.min(document.documentElement.scrollHeight, 1600))
    await page.screenshot({ path: `${SHOTS}dashboard-${name}.png`, fullPage: true, clip: { x: 0, y: 0, width: LAPTOP.width, height } })
  }

  it('journal: newest first, filtered by service, status and path, names no internal collection', async () => {
    await api('GET', '/v1/auth/cloud/role/web')
    await api('GET', '/v1/auth/cloud/role/nope')
    await api('GET', '/api/v2/organizations/acme/registry-modules')
    await open()
    const rows = page.locator('#journal-list tbody tr')
    await shown('#journal-list tbody tr', 'GET /v1/auth/cloud/role/web')
    expect(await rows.first().textContent()).toContain('GET /api/v2/organizations/acme/registry-modules')
    // The page's own control calls are left out unless asked for.
    expect(await textOf('#journal-list')).not.toContain('/_doppel/')
    await page.getByLabel('Service').selectOption('cloud-auth')
    expect(await rows.count()).toBe(2)
    await page.getByLabel('Status').selectOption('4')
    expect(await rows.count()).toBe(1)
    expect(await rows.first().textContent()).toContain('404 client error')
    await page.getByLabel('Status').selectOption('5')
    expect(await rows.first().textContent()).toBe('No request matches the filters.')
    await page.getByLabel('Status').selectOption('')
    await page.getByLabel('Service').selectOption('control')
    // The page reads the state and the journal side by side: the journal of a later refresh is the one sure
    // to hold the state read (which is journaled once its answer's start is kept).
    await page.locator('#refresh').click()
    await shown('#journal-list tbody tr', 'GET /_doppel/state')
    await page.getByLabel('Service').selectOption('')
    await page.getByLabel('Path contains').fill('/role/web')
    expect(await rows.count()).toBe(1)
    await page.getByLabel('Path contains').fill('')
    expect(await page.locator('#journal-list time').first().getAttribute('datetime')).toBe(START)
    await shot('journal')
  })

  it('keyboard: tab to the journal filter, filter, open an entry with Enter; focus lands on it', async () => {
    await api('GET', '/v1/auth/cloud/role/web')
    await api('GET', '/api/v2/organizations/acme/registry-modules')
    await open()
    let focused = ''
    for (let i = 0; i < 30 && focused !== 'journal-path'; i++) {
      await page.keyboard.press('Tab')
      focused = await page.evaluate(() => document.activeElement?.id ?? '')
    }
    expect(focused).toBe('journal-path')
    await page.keyboard.type('/role/web')
    expect(await page.locator('#journal-list tbody tr').count()).toBe(1)
    let href = ''
    for (let i = 0; i < 10 && !href.startsWith('#journal/'); i++) {
      await page.keyboard.press('Tab')
      href = await page.evaluate(() => document.activeElement?.getAttribute('href') ?? '')
    }
    expect(href).toMatch(/^#journal\/\d+$/)
    await page.keyboard.press('Enter')
    await shown('#journal-entry h3', 'GET /v1/auth/cloud/role/web')
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('entry-title')
    expect(await page.locator('#journal-list').isHidden()).toBe(true)
    await page.keyboard.press('Shift+Tab')
    await page.keyboard.press('Enter')
    await expect.poll(() => page.locator('#journal-list').isVisible(), POLL).toBe(true)
    expect(await page.locator('#journal-path').inputValue()).toBe('/role/web')
  })

  it('a refresh keeps the place: the focused link keeps focus, an opened "All fields" stays open', async () => {
    await api('GET', '/v1/auth/cloud/role/web')
    await open('#registry')
    const fields = page.getByRole('row', { name: /^acme\/vpc\/aws 1\.0\.0/ }).locator('details')
    await fields.locator('summary').click()
    await page.getByRole('link', { name: 'Journal' }).focus()
    await refreshFromScript()
    expect(await fields.evaluate((node) => (node as HTMLDetailsElement).open)).toBe(true)
    await page.getByRole('link', { name: 'Journal' }).click()
    // The page moves focus to the opened view's title on hashchange, which may come after the click returns.
    await page.waitForFunction(() => document.activeElement?.id === 'journal-title')
    const link = page.locator('#journal-list a').first()
    await link.focus()
    const href = await link.getAttribute('href')
    await api('GET', '/v1/auth/cloud/role/deployer')
    await refreshFromScript()
    expect(await page.locator('#journal-list tbody tr').first().textContent()).toContain('/role/deployer')
    expect(await page.evaluate(() => document.activeElement?.getAttribute('href'))).toBe(href)
  })

  it('journal entry: request, answer and explanation as the journal gives them; says so when it gives none', async () => {
    await api('GET', '/v1/auth/cloud/role/web')
    await open()
    const entry = (await api('GET', '/_doppel/journal')).entries.find((candidate: { url: string }) => candidate.url.endsWith('/role/web'))
    await open(`#journal/${entry.id}`)
    await shown('#journal-entry h3', `Request ${entry.id}: GET /v1/auth/cloud/role/web`)
    for (const part of ['Explanation', 'Request', 'Answer']) expect(await page.getByRole('heading', { name: part, exact: true }).count()).toBe(1)
    const shownEntry = await textOf('#journal-entry')
    expect(shownEntry).toContain('Not refused: nothing to explain.')
    // The journal as the page reads it: the token header redacted, the answer's body pretty-printed.
    expect(await page.getByRole('row', { name: /^x-service-token/ }).textContent()).toBe('x-service-token<redacted>')
    expect(shownEntry).toContain('"auth_type": "ec2"')

    // The shape the journal gives a refusal (request, response, explanation), served to the page as is.
    const refused = {
      ...entry,
      id: 99,
      method: 'POST',
      url: `${url}/v1/auth/cloud/login`,
      status: 400,
      request: { method: 'POST', path: '/v1/auth/cloud/login', headers: { 'content-type': 'application/json', 'x-odd': 'a\u0000b' }, body: '{"role":"web","nonce":"n-1"}', truncated: false },
      response: { status: 400, headers: { 'content-type': 'application/json' }, body: '{"errors":["Error validating instance: AMI ID \\"ami-0def5678\\" does not belong to role \\"web\\""]}', truncated: true },
      explanation: {
        rule: 'bound_ami_id',
        seen: 'ami-0def5678',
        expected: '[ami-0abc1234]',
        hint: 'add the AMI to the role, or log in from an instance of that AMI',
        details: { 'canonical request': 'POST\n/\n\nhost:sts.amazonaws.com\n' },
      },
    }
    const journalCall = (address: URL) => address.pathname === '/_doppel/journal'
    // An entry from a journal that kept no exchange (an older server): each part says so.
    const bare = { id: 98, time: entry.time, service: 'cloud-auth', method: 'GET', url: `${url}/v1/auth/cloud/role/web`, status: 200, durationMs: 1 }
    await page.route(journalCall, (route) => route.fulfill({ json: { total: 2, limit: 1000, bodyLimit: 16384, entries: [bare, refused] } }))
    try {
      await open('#journal/98')
      await shown('#journal-entry h3', 'Request 98: GET /v1/auth/cloud/role/web')
      expect(await textOf('#journal-entry')).toContain('This journal keeps no request details for this entry.')
      expect(await textOf('#journal-entry')).toContain('This journal keeps no answer details for this entry.')
      await open('#journal/99')
      await shown('#journal-entry h3', 'Request 99: POST /v1/auth/cloud/login')
      const text = await textOf('#journal-entry')
      expect(await page.getByRole('definition').filter({ hasText: 'host:sts.amazonaws.com' }).locator('pre').textContent()).toBe('POST\n/\n\nhost:sts.amazonaws.com\n')
      for (const part of ['bound_ami_id', 'ami-0def5678', '[ami-0abc1234]', 'add the AMI to the role', '"role": "web"', 'does not belong to role', 'x-odd', 'a\\u0000b', "cut at the journal's limit (16384 bytes)"]) expect(text).toContain(part)
      expect(text).not.toContain('\u0000')
      await page.getByRole('link', { name: 'Auth method' }).click()
      await shown('#page-auth tbody tr', 'bound_ami_id')
    } finally {
      await page.unroute(journalCall)
    }
  })

  it('auth method: roles in the read shape, tokens and access list in RFC 3339, recent logins and their outcome', async () => {
    await otherAmi()
    expect(await ec2Login('i-0aaaaaaaaaaaaaaa1')).toBe(400)
    expect(await ec2Login('i-0123456789abcdef0')).toBe(200)
    await open('#auth')
    await shown('#page-auth h3', 'Mount auth/cloud')
    const logins = page.getByRole('region', { name: 'Recent logins, newest first' }).locator('tbody tr')
    expect(await logins.allTextContents()).toHaveLength(2)
    expect(await logins.nth(0).textContent()).toContain('200 success')
    expect(await logins.nth(1).textContent()).toContain('400 client error')
    const web = page.getByRole('rowheader', { name: /^web/ })
    expect(await web.count()).toBe(1)
    const role = (await page.getByRole('row', { name: /^web/ }).textContent())!
    expect(role).toContain('bound_ami_id: ami-0abc1234')
    expect(role).toContain('3600 (1 h)')
    const text = await textOf('#page-auth')
    // The role read's fields, not the stored entry's: no name, no HMAC key, no deprecated zeros.
    expect(text).toContain('role_id')
    expect(text).not.toMatch(/hmac_key|\bmax_ttl\b(?!\s*\()|cloud-auth:/)
    expect(text).not.toMatch(/\b\d{13}\b/)
    expect(await textOf('#page-auth [aria-label="Tokens issued by logins"] tbody')).toContain('2030-01-01T01:00:00Z (in 1 h)')
    await shot('auth')
  })

  it('a refused ec2 login: its outcome on the auth page, and its journal entry says why (bound_ami_id)', async () => {
    await otherAmi()
    expect(await ec2Login('i-0aaaaaaaaaaaaaaa1')).toBe(400)
    await open('#auth')
    const login = page.getByRole('region', { name: 'Recent logins, newest first' }).locator('tbody tr').first()
    expect(await login.textContent()).toMatch(/web400 client error.*bound_ami_id$/)
    await login.getByRole('link').press('Enter')
    await shown('#journal-entry h3', 'POST /v1/auth/cloud/login')
    const why = page.getByRole('region', { name: 'Explanation' })
    const text = await why.textContent()
    expect(text).toMatch(/rule.*bound_ami_id/)
    expect(text).toContain('seenami-0def5678')
    expect(text).toContain('ami-0abc1234')
    expect(await textOf('#journal-entry')).toContain('does not belong to role')
    await shot('journal-entry')
  })

  it('registry: versions with their deprecation first, in the API names (kebab-case)', async () => {
    await open('#registry')
    const row = page.getByRole('row', { name: /^acme\/vpc\/aws 1\.0\.0/ })
    expect(await row.textContent()).toContain('deprecated: Uses a removed provider argument; upgrade to 1.1.0')
    expect(await page.getByRole('row', { name: /^acme\/vpc\/aws 1\.1\.0/ }).textContent()).toContain('not deprecated')
    const text = await textOf('#page-registry')
    for (const name of ['commit-sha', 'created-at', 'registry-module', 'no-code']) expect(text).toContain(name)
    expect(text).not.toMatch(/moduleId|commitSha|createdAt|noCode|uploadObject|registry\.versions/)
    await shot('registry')
  })

  it('fake cloud: instances, principals and keys; an invisible character in a record key is shown escaped', async () => {
    await api('POST', '/_doppel/cloud/instances', { instance_id: 'i-0bbbbbbbbbbbbbbb1', ami_id: 'ami-0def5678', tags: { 'cost\u0000center': 'a\u200bb' } })
    await open('#cloud')
    const row = page.getByRole('row', { name: /^i-0bbbbbbbbbbbbbbb1/ })
    expect(await row.textContent()).toContain('cost\\u0000center=a\\u200bb')
    expect(await row.locator('.escape').first().getAttribute('title')).toBe('invisible character U+0000')
    expect(await textOf('#page-cloud')).not.toMatch(/[\u0000\u200b]/)
    expect(await page.getByRole('rowheader', { name: 'arn:aws:iam::123456789012:user/deployer' }).count()).toBe(1)
    // A session key's expiry as RFC 3339 (the store keeps epoch milliseconds).
    const session = page.getByRole('row', { name: /^ASIA/ })
    expect(await session.textContent()).toContain('2030-01-01T01:00:00Z (in 1 h)')
    expect(await textOf('#page-cloud')).not.toMatch(/\b\d{13}\b|fake-cloud\./)
    await shot('cloud')
  })

  it('at 1366×768 the key columns stay in view: cells wrap, no sideways scroll; narrower, the first column sticks', async () => {
    const wide = await api('POST', '/_doppel/cloud/instances', { instance_id: 'i-0ccccccccccccccc1', ami_id: 'ami-0def5678', tags: { note: 'x'.repeat(250) } })
    expect(wide.instance_id).toBe('i-0ccccccccccccccc1')
    await open('#registry')
    const deprecation = page.getByRole('row', { name: /^acme\/vpc\/aws 1\.0\.0/ }).getByRole('cell').first()
    expect(await deprecation.textContent()).toMatch(/^deprecated: /)
    const box = (await deprecation.boundingBox())!
    expect(box.x).toBeGreaterThanOrEqual(0)
    expect(box.x + box.width).toBeLessThanOrEqual(LAPTOP.width)
    for (const fragment of ['#journal', '#auth', '#registry', '#cloud', '#control']) {
      await page.getByRole('link', { name: { '#journal': 'Journal', '#auth': 'Auth method', '#registry': 'Registry', '#cloud': 'Fake cloud', '#control': /^Clock/ }[fragment] }).click()
      expect(await page.evaluate(() => document.documentElement.scrollWidth), fragment).toBeLessThanOrEqual(LAPTOP.width)
      const overflowing = await page.locator('.scroll').evaluateAll((boxes) => boxes.filter((node) => node.checkVisibility() && node.scrollWidth > node.clientWidth).length)
      expect(overflowing, fragment).toBe(0)
    }
    // On a narrower window a table may be wider than its box: scrolled to its far end, the row's name stays.
    await page.getByRole('link', { name: 'Fake cloud' }).click()
    await page.setViewportSize({ width: 700, height: 768 })
    try {
      const region = page.getByRole('region', { name: 'EC2 instances' })
      const scroller = await region.evaluate((node) => ({ scroll: node.scrollWidth, client: node.clientWidth, left: node.getBoundingClientRect().left }))
      expect(scroller.scroll).toBeGreaterThan(scroller.client)
      await region.evaluate((node) => node.scrollTo({ left: node.scrollWidth }))
      const key = (await page.getByRole('rowheader', { name: /^i-0ccccccccccccccc1/ }).boundingBox())!
      expect(Math.abs(key.x - scroller.left)).toBeLessThan(2)
    } finally {
      await page.setViewportSize(LAPTOP)
    }
  })

  it('accessibility: every control has a name, headings go down one level at a time, on every page', async () => {
    await otherAmi()
    await ec2Login('i-0aaaaaaaaaaaaaaa1')
    await api('GET', '/t/job-9/_doppel/health')
    await api('POST', '/_doppel/faults', { path: '/nowhere', status: 503 })
    const cdp = await page.context().newCDPSession(page)
    const NAMED = new Set(['button', 'link', 'textbox', 'searchbox', 'combobox', 'checkbox', 'spinbutton', 'DisclosureTriangle', 'region', 'table', 'navigation', 'search'])
    for (const fragment of ['#journal', '#auth', '#registry', '#cloud', '#control', '#journal/1']) {
      await open(fragment)
      const { nodes } = (await cdp.send('Accessibility.getFullAXTree')) as { nodes: any[] }
      const unnamed = nodes
        .filter((node) => !node.ignored && NAMED.has(node.role?.value) && `${node.name?.value ?? ''}`.trim() === '')
        .map((node) => `${fragment}: a ${node.role.value} without a name`)
      expect(unnamed).toEqual([])
      const levels = await page.locator('h1, h2, h3, h4, h5, h6').evaluateAll((headings) =>
        headings.filter((heading) => heading.checkVisibility()).map((heading) => Number(heading.tagName[1])),
      )
      expect(levels[0], fragment).toBe(1)
      for (let i = 1; i < levels.length; i++) expect(levels[i]! - levels[i - 1]!, `${fragment}: heading ${i}`).toBeLessThanOrEqual(1)
      const landmarks = nodes.filter((node) => !node.ignored && ['banner', 'navigation', 'main'].includes(node.role?.value)).map((node) => node.role.value)
      expect(new Set(landmarks), fragment).toEqual(new Set(['banner', 'navigation', 'main']))
    }
    expect(await page.locator('#status').getAttribute('aria-live')).toBe('polite')
    expect(await page.title()).toBe('Journal · doppel dashboard')
    await cdp.detach()
    await api('DELETE', '/_doppel/tenants/job-9')
  })

  it('clock: advances and sets the emulator clock from the page, by keyboard', async () => {
    await open('#control')
    await page.getByLabel(/^Advance by/).focus()
    await page.keyboard.type('73h')
    await page.keyboard.press('Enter')
    await shown('#clock-now', '2030-01-04T01:00:00.000Z')
    expect((await api('GET', '/_doppel/clock')).now).toBe('2030-01-04T01:00:00.000Z')
    await shown('#header-now', '2030-01-04T01:00:00.000Z')
    await page.getByLabel(/^Set to/).fill('2031-06-01T12:00:00Z')
    await page.getByRole('button', { name: 'Set', exact: true }).click()
    await expect.poll(async () => (await api('GET', '/_doppel/clock')).now, POLL).toBe('2031-06-01T12:00:00.000Z')
    await page.getByLabel(/^Advance by/).fill('soon')
    await page.getByRole('button', { name: 'Advance' }).click()
    await shown('#clock-error', /^400: /)
    // Chromium logs every 4xx fetch as a console error; this one was asked for.
    problems = problems.filter((problem) => !problem.includes('status of 400'))
  })

  it('faults: adds a fault that the server then applies, and removes it', async () => {
    await open('#control')
    await page.getByLabel('Path pattern').fill('/v1/auth/cloud/*')
    await page.getByLabel('Value').fill('503')
    await page.getByRole('button', { name: 'Add fault' }).click()
    await expect.poll(async () => (await api('GET', '/_doppel/faults')).faults.length, POLL).toBe(1)
    const [fault] = (await api('GET', '/_doppel/faults')).faults
    expect(fault).toMatchObject({ path: '/v1/auth/cloud/*', status: 503 })
    const faulted = await fetch(`${url}/v1/auth/cloud/role/web`, { headers: { 'X-Service-Token': 'root' } })
    expect(faulted.status).toBe(503)
    await page.getByRole('button', { name: 'Refresh' }).click()
    await shown('#fault-list', 'status 503')
    await shot('control')
    await page.getByRole('button', { name: `Remove fault ${fault.id}` }).click()
    await expect.poll(async () => (await api('GET', '/_doppel/faults')).faults.length, POLL).toBe(0)
  })

  it('fixtures, reset and tenants: loads, resets, lists tenants with links to their own dashboards', async () => {
    await open('#control')
    await page.getByLabel('or paste it').fill(JSON.stringify({ registry: { organizations: ['globex'] } }))
    await page.getByRole('button', { name: 'Load fixtures' }).click()
    await expect.poll(async () => Object.keys((await api('GET', '/_doppel/state'))['registry.organizations']), POLL).toContain('globex')
    await page.getByRole('button', { name: 'Reset emulator' }).click()
    await expect.poll(async () => Object.keys((await api('GET', '/_doppel/state'))['registry.organizations']), POLL).toEqual(['acme'])

    await api('GET', '/t/job-7/_doppel/health')
    await page.getByRole('button', { name: 'Refresh' }).click()
    await shown('#tenant-list', 'job-7')
    await page.getByRole('link', { name: 'job-7' }).click()
    await shown('h1', 'doppel tenant job-7')
    expect(new URL(page.url()).pathname).toBe('/t/job-7/_doppel/ui/')
    await page.getByRole('link', { name: /^Clock/ }).click()
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
