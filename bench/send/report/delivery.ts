/** Accept-to-delivered per checkout: POST /emails to 200, and to `delivered`, on an idle pipeline. */
import { ms, summarise } from '../../lib/stats';
import { POLL_MS } from '../accept-to-delivered';
import type { ReportContext } from './report-context';

export function printDelivery({ print, results, options }: ReportContext) {
  for (const result of results) {
    const acc = summarise(result.accepted);
    const del = summarise(result.delivered);
    print(
      `Accept-to-delivered, ${result.label} (${options.deliveredSends} sequential sends on an idle pipeline, GET /emails/{id} every ${POLL_MS} ms; includes the SES emulator's 20 ms outcome delay):`,
    );
    print(`  POST /emails -> 200:        p50 ${ms(acc.p50)} ms, p95 ${ms(acc.p95)} ms, max ${ms(acc.max)} ms`);
    print(
      `  POST /emails -> delivered:  p50 ${ms(del.p50)} ms, p95 ${ms(del.p95)} ms, max ${ms(del.max)} ms${result.undelivered ? ` (${result.undelivered} not delivered within 30 s)` : ''}`,
    );
  }
  print();
}
