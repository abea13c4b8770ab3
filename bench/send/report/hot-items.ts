/** Hot items: the DynamoDB item writes per second and the most-written items, in the phases at the highest concurrency. */
import { table } from '../../lib/stats';
import type { ReportContext } from './report-context';

export function printHotItems({ print, all, phaseName, options }: ReportContext) {
  const maxConcurrency = Math.max(...options.concurrencies);
  const busiest = all.filter((phase) => phase.result.concurrency === maxConcurrency && phase.hot);
  if (!busiest.length) return;
  print(
    `Hot items: DynamoDB item writes (PutItem, UpdateItem, DeleteItem, TransactWriteItems Put/Update/Delete, BatchWriteItem) by item key, in the c=${maxConcurrency} phases (the highest rates), over the phase's full seconds:`,
  );
  print();
  for (const phase of busiest) {
    const hot = phase.hot!;
    const first = hot.top[0];
    print(
      `${phaseName(phase)}: ${hot.writesPerSecond.toFixed(0)} item writes/s (busiest second ${hot.maxWritesPerSecond}); most-written item: ${first ? `${first.key} (${first.shape}), ${first.perSecond.toFixed(1)} writes/s, at most ${first.maxPerSecond} in one second` : 'none'}`,
    );
    if (hot.top.length)
      print(
        table(
          ['item key', 'kind', 'writes/s', 'max in 1 s'],
          hot.top.map((item) => [
            item.key.length > 90 ? `${item.key.slice(0, 87)}...` : item.key,
            item.shape,
            item.perSecond.toFixed(1),
            String(item.maxPerSecond),
          ]),
        ),
      );
    print();
  }
}
