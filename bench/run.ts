// npm run bench: every figure is a ratio against a floor measured in the same run (or an absolute bound),
// printed as a table and written to bench/results.json.
import { writeFileSync } from 'node:fs'
import { benchIdentityDocument } from './identity-document.ts'
import { benchInProcess } from './in-process.ts'
import type { Figure } from './lib.ts'
import { benchScale } from './scale.ts'
import { benchServerLoad } from './server-load.ts'
import { benchSoak } from './soak.ts'
import { benchStartup } from './startup.ts'
import { benchTenants } from './tenants.ts'

const sections: [string, () => Promise<Figure[]> | Figure[]][] = [
  ['in-process (MSW)', benchInProcess],
  ['standalone server under load', () => benchServerLoad()],
  ['scale', benchScale],
  ['soak', benchSoak],
  ['start-up', () => benchStartup()],
  ['identity document', benchIdentityDocument],
  ['tenants', () => benchTenants()],
]

// `npm run bench -- tenants soak` runs only the sections whose titles contain one of the words.
const only = process.argv.slice(2)
const chosen = only.length === 0 ? sections : sections.filter(([title]) => only.some((word) => title.includes(word)))
const figures: Figure[] = []
const started = performance.now()
for (const [title, run] of chosen) {
  process.stdout.write(`… ${title}\n`)
  figures.push(...(await run()))
}
const width = Math.max(...figures.map((f) => f.name.length))
process.stdout.write(`\n${'figure'.padEnd(width)}  ${'value'.padStart(9)}  unit   target    met  detail\n`)
for (const f of figures) {
  process.stdout.write(`${f.name.padEnd(width)}  ${f.value.toFixed(3).padStart(9)}  ${f.unit.padEnd(5)}  ${f.target.padEnd(8)}  ${f.met ? 'yes' : 'NO '}  ${f.detail ?? ''}\n`)
}
writeFileSync(new URL('./results.json', import.meta.url), JSON.stringify(figures.map(({ name, value, unit, target, met }) => ({ name, value, unit, target, met })), null, 2) + '\n')
process.stdout.write(`\n${figures.filter((f) => f.met).length} of ${figures.length} targets met in ${((performance.now() - started) / 1000).toFixed(0)} s; bench/results.json written\n`)
