/** --aws-latency: the latency injected into the stacks per operation over every measured phase, next to the model. */
import { table } from '../../lib/stats';
import { LATENCY } from './aws-latency-model';
import type { ReportContext } from './report-context';

export function printInjectedLatency({ print, all }: ReportContext) {
  const injected: Record<string, { count: number; total: number }> = {};
  for (const phase of all)
    for (const [op, { count, meanMs }] of Object.entries(phase.injected ?? {})) {
      injected[op] ??= { count: 0, total: 0 };
      const entry = injected[op];
      entry.count += count;
      entry.total += count * meanMs;
    }
  print(
    "Latency injected into the stacks (all measured phases and their drains; the floors' calls are delayed the same way in this process):",
  );
  print();
  print(
    table(
      ['operation', 'calls delayed', 'mean ms', 'model p50 / p99'],
      Object.entries(injected)
        .sort((a, b) => b[1].count - a[1].count)
        .map(([op, { count, total }]) => [
          op,
          String(count),
          (total / count).toFixed(1),
          LATENCY[op] ? `${LATENCY[op]!.p50} / ${LATENCY[op]!.p99}` : '-',
        ]),
    ),
  );
  print();
}
