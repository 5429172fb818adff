// npm run bench [-- <section>…]: every figure is a ratio against a floor measured in the same run (or an
// absolute bound), printed as a table (and as Markdown, to paste into docs/performance.md) and merged into
// bench/results.json: a run of some sections replaces only their figures. Each section runs in a process
// of its own (bench/section.ts), so none is measured in what an earlier one left behind.
import { fork } from 'node:child_process'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { cpus, loadavg } from 'node:os'
import { floorMissesToo, type Figure } from './lib.ts'
import { sections } from './sections.ts'

const names = sections.map(([name]) => name)

const asked = process.argv.slice(2)
const unknown = asked.filter((name) => !names.includes(name))
if (unknown.length > 0) {
  process.stderr.write(`unknown section${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}\nusage: npm run bench [-- <section>…]\nsections: ${names.join(' ')}\n`)
  process.exit(2)
}
const chosen = asked.length === 0 ? sections : sections.filter(([name]) => asked.includes(name))

interface Result extends Figure {
  section: string
}
const machine = `${cpus().length} × ${cpus()[0]?.model.trim() ?? 'unknown CPU'}, Node ${process.version}`
const load = () => loadavg().map((l) => l.toFixed(2)).join(' ')
/**
 * CPU seconds of this process and of the children it has waited for (/proc/self/stat: utime, stime,
 * cutime, cstime; in USER_HZ, 100 a second on Linux), printed beside a section's wall time: on a busy machine the wall time says more about
 * the others than about the bench.
 */
const cpuSeconds = () => {
  if (!existsSync('/proc/self/stat')) return NaN
  const stat = readFileSync('/proc/self/stat', 'latin1')
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ').slice(11, 15).reduce((sum, ticks) => sum + Number(ticks), 0) / 100
}
/** Runs one section in a child process (`fork` passes on this process's flags: --expose-gc) and returns its figures. */
function runAlone(name: string): Promise<Figure[]> {
  const child = fork(new URL('./section.ts', import.meta.url), [name])
  let figures: Figure[] | undefined
  child.once('message', (message) => (figures = message as Figure[]))
  return new Promise((resolve, reject) => {
    child.once('error', reject)
    child.once('exit', (code, signal) => (figures && code === 0 ? resolve(figures) : reject(new Error(`section ${name} ended with ${signal ?? `exit code ${code}`} and no figures`))))
  })
}

process.stdout.write(`${new Date().toISOString()} on ${machine}; load average ${load()}\n`)
const results: Result[] = []
const started = performance.now()
for (const [name, title] of chosen) {
  process.stdout.write(`… ${name}: ${title}\n`)
  const [wallStarted, cpuStarted] = [performance.now(), cpuSeconds()]
  for (const f of await runAlone(name)) results.push({ ...f, section: name })
  const wall = (performance.now() - wallStarted) / 1000
  process.stdout.write(`  ${name} took ${wall.toFixed(0)} s, ${(cpuSeconds() - cpuStarted).toFixed(0)} s of CPU in the bench and the processes it ran (load average ${load()})\n`)
}

const width = Math.max(...results.map((f) => f.name.length))
process.stdout.write(`\n${'figure'.padEnd(width)}  ${'value'.padStart(9)}  unit   target    met  detail\n`)
for (const f of results) {
  process.stdout.write(`${f.name.padEnd(width)}  ${f.value.toFixed(3).padStart(9)}  ${f.unit.padEnd(5)}  ${f.target.padEnd(8)}  ${f.met ? 'yes' : floorMissesToo(f) ? 'NO*' : 'NO '}  ${f.detail ?? ''}\n`)
}
if (results.some(floorMissesToo)) process.stdout.write("NO*: node:http doing doppel's work in process, measured in the same run, misses the target too\n")
const unit = (u: string) => (u === 'x' ? '×' : u === 'count' ? '' : ` ${u}`)
const value = (f: Figure) => `${f.unit === 'x' ? f.value : Number(f.value.toFixed(1))}${unit(f.unit)}`
const target = (f: Figure) => `${f.target.replace('<=', '≤').replace('>=', '≥')}${unit(f.unit)}`
process.stdout.write(`\nMarkdown (${new Date().toISOString().slice(0, 10)}, ${machine}):\n\n| figure | value | target | met | detail |\n| --- | --- | --- | --- | --- |\n`)
for (const f of results) {
  process.stdout.write(`| ${f.name} | ${value(f)} | ${target(f)} | ${f.met ? 'yes' : floorMissesToo(f) ? '**no**, floor too' : '**no**'} | ${f.detail ?? ''} |\n`)
}

// The figures of the sections not run are kept as the last run left them (a file without sections is
// from before they had names, and is replaced).
const file = new URL('./results.json', import.meta.url)
const ran = new Set(chosen.map(([name]) => name))
const kept = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Result[]).filter((f) => f.section && !ran.has(f.section)) : []
const merged = [...kept, ...results.map(({ section, name, value, unit, target, met, floor }) => ({ section, name, value, unit, target, met, ...(floor && { floor }) }))]
merged.sort((a, b) => names.indexOf(a.section) - names.indexOf(b.section))
writeFileSync(file, JSON.stringify(merged, null, 2) + '\n')
const met = results.filter((f) => f.met).length
const missed = results.length - met
const withFloor = results.filter(floorMissesToo).length
const floorNote = missed === 0 ? '' : `; of the ${missed} missed, ${withFloor} missed by node:http doing doppel's work too`
process.stdout.write(`\n${met} of ${results.length} targets met${floorNote} in ${((performance.now() - started) / 1000).toFixed(0)} s; ${[...ran].join(', ')} written to bench/results.json\n`)
