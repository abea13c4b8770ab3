/**
 * In-stack latency of POST /emails per API phase: the gateway's Server-Timing when present, else the
 * client's loopback figure; under --aws-latency, against the goal p50 <= 20 ms and p99 <= 50 ms.
 */
import { ms, summarise, table } from '../../lib/stats';
import type { ReportContext } from './report-context';

const GOAL = { p50: 20, p99: 50 };

export function printInStackLatency({ print, all, phaseName, options }: ReportContext) {
  const awsLatency = options.awsLatency;
  // Every API phase: the headline's and, with --html-kb, each body's.
  const apiPhases = all.filter((phase) => !phase.floor);
  print(
    `In-stack latency of POST /emails (ms)${awsLatency ? ', with AWS latencies' : ' (emulator latencies, not AWS: run with --aws-latency for the goal)'}:`,
  );
  print();
  print(
    table(
      ['phase', 'source', 'n', 'p50', 'p95', 'p99', ...(awsLatency ? [`p50 <= ${GOAL.p50}`, `p99 <= ${GOAL.p99}`] : [])],
      apiPhases.map((phase) => {
        const timed = phase.result.serverLatencies;
        const useServer = timed.length >= 0.9 * phase.result.latencies.length && timed.length > 0;
        const s = summarise(useServer ? timed : phase.result.latencies);
        return [
          phaseName(phase),
          useServer ? 'Server-Timing handler' : 'loopback (client)',
          String(s.count),
          ms(s.p50),
          ms(s.p95),
          ms(s.p99),
          ...(awsLatency ? [s.p50 <= GOAL.p50 ? 'PASS' : 'MISS', s.p99 <= GOAL.p99 ? 'PASS' : 'MISS'] : []),
        ];
      }),
    ),
  );
  print(
    "(Server-Timing: the local API gateway's `handler;dur=` header, the time from the request reaching the gateway to its answer; loopback: the client's time, which adds the bench's own HTTP and queueing on the 2 shared cores.)",
  );
  print();
}
