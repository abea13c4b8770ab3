/** What the run left: each stack's memory after start-up and after the run, its dead-letter queues, and the drains. */
import type { ReportContext } from './report-context';

export function printResources({ print, results, current }: ReportContext) {
  for (const result of results) {
    print(
      `Memory of the stack's process tree (${result.label}; Node + DynamoDB Local), RSS: ${result.idleRss.toFixed(0)} MB after start-up, ${result.busyRss.toFixed(0)} MB after the run.`,
    );
    const dlqTotal = Object.values(result.dlqDepths).reduce((a, b) => a + b, 0);
    print(`Dead-letter queues after the run (${result.label}): ${dlqTotal === 0 ? 'empty' : JSON.stringify(result.dlqDepths)}.`);
  }
  print(`Drains: every phase's backlog was delivered before the next phase (worker queues: ${current.queueNames.join(', ')}).`);
}
