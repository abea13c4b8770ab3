/** The text report: one line per step as it finishes (status, duration, name, note), the failing answer under a FAIL, and a summary. */
import type { RunReport, StepResult } from './runner';

const WIDTH = 'ONLY-AWS'.length;

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`.padStart(7);
}

export function formatStep(result: StepResult): string {
  const lines = [`${result.status.padEnd(WIDTH)} ${seconds(result.ms)}  ${result.name}${result.note ? `  (${result.note})` : ''}`];
  if (result.error) lines.push(`         ${result.error}`);
  if (result.answer) lines.push(`         ${result.answer.request} -> ${result.answer.status} ${result.answer.body}`);
  if (result.status === 'ONLY-AWS' && result.settles) lines.push(`         settled only on AWS: ${result.settles}`);
  return lines.join('\n');
}

export function formatHeader(target: string, url: string): string {
  return `test:deployed against ${url} (${target === 'local' ? 'the local cloud' : 'AWS'})`;
}

export function formatSummary(report: RunReport): string {
  const count = (status: StepResult['status']) => report.steps.filter((step) => step.status === status).length;
  const parts = [`${count('PASS')} passed`, `${count('FAIL')} failed`, `${count('SKIP')} skipped`];
  if (count('ONLY-AWS')) parts.push(`${count('ONLY-AWS')} passed here but settled only on AWS`);
  return `${report.ok ? 'OK' : 'FAILED'}: ${parts.join(', ')} (run ${report.run_id})`;
}
