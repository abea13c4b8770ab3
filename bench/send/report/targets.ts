/**
 * The targets, MET or MISSED (PASS or MISS for the calls) per checkout: API >= 0.5 x each floor at each
 * concurrency, client p99 < 100 ms at c=32, and under --count-calls product SDK calls per delivered
 * email within the goal.
 */
import { ms, summarise } from '../../lib/stats';
import { apiOverFloor, phaseOf } from './floor-comparison';
import { PRODUCT_CALLS_GOAL, productCallsPerEmail, productCallsVerdict } from './product-calls';
import type { ReportContext } from './report-context';

const TARGET_CONCURRENCY = 32;

export function printTargets(context: ReportContext) {
  const { print, all, results, options } = context;
  print('Targets:');
  for (const result of results) {
    for (const c of options.concurrencies) {
      for (const floor of options.floors) {
        const ratio = apiOverFloor(context, result.label, floor, c);
        print(`  ${result.label}: API >= 0.5 x floor ${floor} at c=${c}: ${ratio.toFixed(2)} -> ${ratio >= 0.5 ? 'MET' : 'MISSED'}`);
      }
    }
    const target = phaseOf(all, result.label, 'API', TARGET_CONCURRENCY);
    if (target) {
      const p99 = summarise(target.result.latencies).p99;
      print(`  ${result.label}: p99 < 100 ms at c=${TARGET_CONCURRENCY} (client side): ${ms(p99)} ms -> ${p99 < 100 ? 'MET' : 'MISSED'}`);
    }
    if (options.countCalls) {
      for (const phase of all.filter((p) => p.target === result.label && p.name === 'API')) {
        const perEmail = productCallsPerEmail(phase);
        print(
          `  ${result.label}: product SDK calls per delivered email <= ${PRODUCT_CALLS_GOAL} at c=${phase.result.concurrency}: ${perEmail.toFixed(2)} -> ${productCallsVerdict(perEmail)}`,
        );
      }
    }
  }
  print();
}
