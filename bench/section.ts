// One section of the bench in a process of its own (started by run.ts): its figures go back to run.ts
// over the IPC channel, its progress to the shared stdout. What one section leaves in its process (MSW 3
// keeps every connection it answered: after the in-process section, about 650 MB of heap and 20,000
// handles) does not weigh on the next section's garbage collector.
import { sections } from './sections.ts'

const name = process.argv[2]
const section = sections.find(([candidate]) => candidate === name)
if (!section || !process.send) {
  process.stderr.write(`bench/section.ts runs one section for bench/run.ts: ${sections.map(([n]) => n).join(' ')}\n`)
  process.exit(2)
}
const figures = await section[2]()
process.send(figures, () => process.exit(0))
