import { DEVIATIONS, type Deviation } from '../../src/services/cloud-auth/index.ts'

/** One Markdown table row per entry of DEVIATIONS: where, what doppel answers, what the real service does. */
export function deviationRows(): string[] {
  return DEVIATIONS.map((deviation) => `| \`${deviation.path}\` | ${doppelSide(deviation)} | ${realSide(deviation)} |`)
}

function doppelSide(deviation: Deviation): string {
  if (deviation.kind === 'bad-input-5xx') return `${deviation.doppelStatus} \`${deviation.message}\``
  if (deviation.kind === 'real') return `${deviation.message}, as the real service does`
  return `${deviation.message} (the spec)`
}

function realSide(deviation: Deviation): string {
  if (deviation.kind === 'bad-input-5xx') return `${deviation.realStatus}, the same message${deviation.note ? `: ${deviation.note}` : ''}`
  return deviation.note ?? ''
}
