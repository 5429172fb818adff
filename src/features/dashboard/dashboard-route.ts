import { readFile } from 'node:fs/promises'
import { jsonResponse } from '../../core/http.ts'
import { codeFile } from '../../core/package-files.ts'
import { controlPath } from '../../services/control/urls.ts'
import { explainResponse, listText } from '../../core/explanation.ts'
import { ownEntry } from '../../core/own-field.ts'

const PREFIX = controlPath('ui/')

const SCRIPT = 'text/javascript; charset=utf-8'

/** The page's ES modules: the entry (`app`), the control API client, the record mapping and one per view. */
const MODULES = ['app', 'api-shape', 'auth-view', 'cloud-view', 'control-api', 'control-view', 'dom', 'journal-view', 'registry-view']

/** The page's files, all shipped under `assets/`; nothing else is served from there. */
const ASSETS: Record<string, string> = {
  'index.html': 'text/html; charset=utf-8',
  ...Object.fromEntries(MODULES.map((name) => [`${name}.js`, SCRIPT])),
  'app.css': 'text/css; charset=utf-8',
  'icon.svg': 'image/svg+xml',
}

const HEADERS = {
  // Scripts, styles and fetches from this origin only: no inline code, no CDN, nothing else.
  'Content-Security-Policy': "default-src 'self'; frame-ancestors 'none'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'Cache-Control': 'no-cache',
}

// The files' text, read once per process: shipped code like the modules themselves, not emulator state.
const loaded = new Map<string, Promise<string>>()

function asset(name: string): Promise<string> {
  let text = loaded.get(name)
  if (text === undefined) {
    text = readFile(codeFile(`features/dashboard/assets/${name}`), 'utf8')
    loaded.set(name, text)
  }
  return text
}

/**
 * `GET /_doppel/ui/`: the dashboard, one static page that only calls the control API beside it. Its
 * URLs are relative, so it works under a tenant's prefix too; `/_doppel/ui` redirects to the slash form.
 */
export async function dashboard(request: Request): Promise<Response> {
  if (request.method !== 'GET' && request.method !== 'HEAD') return jsonResponse(405, { errors: ['unsupported operation'] })
  const path = new URL(request.url).pathname
  if (path === PREFIX.slice(0, -1)) return new Response(null, { status: 308, headers: { Location: 'ui/' } })
  const name = path === PREFIX ? 'index.html' : path.slice(PREFIX.length)
  const type = ownEntry(ASSETS, name)
  if (type === undefined) {
    return explainResponse(jsonResponse(404, { errors: [`no such dashboard file: ${path}`] }), { rule: 'dashboard file', seen: name, expected: listText(Object.keys(ASSETS)) })
  }
  const body = request.method === 'HEAD' ? null : await asset(name)
  return new Response(body, { status: 200, headers: { 'Content-Type': type, ...HEADERS } })
}
