/**
 * The report's head: the run (machine, load average, checkouts, what was sent, the phases, the modes),
 * the AWS latency model under --aws-latency, and what each floor issues per request.
 */
import { cpus } from 'node:os';
import { table } from '../../lib/stats';
import { LATENCY } from './aws-latency-model';
import type { ReportContext } from './report-context';

export interface RunFacts {
  loadBefore: number[];
  loadAfter: number[];
  /** The whole run's wall time. */
  seconds: number;
}

export function printHeader({ print, results, options }: ReportContext, run: RunFacts) {
  print(`# bench:send ${new Date().toISOString()}`);
  print();
  print(
    `Machine: ${cpus().length} cores (${cpus()[0]?.model ?? '?'}), Node ${process.version}; load average before ${run.loadBefore.map((l) => l.toFixed(2)).join(' ')}, after ${run.loadAfter.map((l) => l.toFixed(2)).join(' ')}; run took ${run.seconds.toFixed(0)} s.`,
  );
  print(
    `Checkouts: ${results.map((result) => `${result.label} (${result.commit})`).join(', ')}. Stack: embedded local cloud with DATA_IN_MEMORY=1 (DynamoDB Local -inMemory); fauxqs, SES/DNS/Scheduler emulators and the API gateway in the stack's main thread (the API thread), pollers and worker Lambdas in its workers thread; the load generator and the floors' SDK clients in this process.`,
  );
  print(
    `Sends: plan 'dedicated' + payment method, verified domain (DNS emulator); POST /emails {from: bench@<domain>, to: success+<n>@simulator.amazonses.com, ${options.template ? "template: {id: 'bench', variables: {n}}} (a published product template: managed unsubscribe)" : options.htmlKbs.some((kb) => kb > 0) ? `subject, text${options.htmlKbs.map((kb) => (kb ? `, html of about ${kb} KB` : ' only')).join(' | ')}} (one API phase per body, named by it)` : 'subject, text}'}.`,
  );
  print(
    `Phases: closed loop, ${options.durationMs / 1000} s each after a ${options.warmupMs / 1000} s warm-up at c=8; the pipeline is drained (worker queues empty) after every phase.`,
  );
  print(
    `Modes: ${[options.countCalls && '--count-calls', options.cpuProf && '--cpu-prof', options.awsLatency && '--aws-latency', options.baseline && `--baseline ${options.baseline}`].filter(Boolean).join(' ') || 'none'}.`,
  );
  print();
}

export function printLatencyModel({ print }: ReportContext) {
  print(
    'AWS latency model (--aws-latency): every product and event-source SDK call of the stacks and every floor call is delayed by a log-normal sample (p50, p99 below, capped at 4 x p99) before it is sent; emulator-internal calls are not. Sources: docs/benchmarks.md.',
  );
  print();
  print(
    table(
      ['operation', 'p50 ms', 'p99 ms', 'source'],
      Object.entries(LATENCY).map(([name, entry]) => [name, String(entry.p50), String(entry.p99), entry.source]),
    ),
  );
  print();
}

export function printFloorSteps({ print, current }: ReportContext) {
  for (const [floor, steps] of Object.entries(current.floorSteps)) {
    print(`Floor '${floor}', per request, sequential, with the product's SDK clients (shared/adapters/aws/clients.ts), no HTTP API:`);
    steps!.forEach((step, i) => {
      print(`  ${i + 1}. ${step}`);
    });
  }
  if (Object.keys(current.floorSteps).length) {
    print(
      "  (floor emails are copies of an item the API wrote; the outbox relay enqueues them; the old floor's SendMessage goes to a scratch queue)",
    );
    print();
  }
}
