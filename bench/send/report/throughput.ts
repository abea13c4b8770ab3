/** Throughput and latency of every phase as the client saw them, and the errors by outcome. */
import { ms, summarise, table } from '../../lib/stats';
import { rateOf, type ReportContext } from './report-context';

export function printThroughput({ print, all, phaseName }: ReportContext) {
  print('Throughput and latency as seen by the client (ms):');
  print();
  print(
    table(
      ['phase', 'requests', 'req/s', 'p50', 'p95', 'p99', 'max', 'errors'],
      all.map((phase) => {
        const s = summarise(phase.result.latencies);
        return [
          phaseName(phase),
          String(s.count),
          rateOf(phase).toFixed(0),
          ms(s.p50),
          ms(s.p95),
          ms(s.p99),
          ms(s.max),
          String(phase.result.errors),
        ];
      }),
    ),
  );
  print();
  const withErrors = all.filter((phase) => phase.result.errors > 0);
  if (withErrors.length) {
    print('Errors by outcome:');
    for (const phase of withErrors)
      print(
        `  ${phaseName(phase)}: ${Object.entries(phase.result.outcomes)
          .map(([label, count]) => `${label} x${count}`)
          .join(', ')}`,
      );
    print();
  }
}
