/**
 * --cost: dollars per million delivered emails by AWS service, for each API phase (its emails, from the
 * phase's start until the pipeline drained), priced at AWS's on-demand list prices (bench/lib/cost/prices.ts),
 * against the goal of at most $5 beyond SES's own charge (issue 32). CloudWatch Logs is not metered.
 */
import { priceUsage, type Cost } from '../../lib/cost/price-usage';
import { PRICES } from '../../lib/cost/prices';
import { table } from '../../lib/stats';
import type { Measured } from '../results';
import type { ReportContext } from './report-context';

export const COST_GOAL_PER_MILLION = 5;

export function phaseCost(phase: Measured): Cost | undefined {
  if (phase.floor || !phase.pipelineUnits || !phase.lambda) return undefined;
  return priceUsage({
    calls: phase.pipelineCalls ?? {},
    failures: phase.pipelineFailures,
    units: phase.pipelineUnits,
    lambda: phase.lambda,
    apiRequests: phase.result.ok + phase.result.errors,
    emails: phase.result.ok,
  });
}

const dollars = (value: number) => `$${value.toFixed(2)}`;

export function printCost({ print, all, phaseName }: ReportContext) {
  const priced = all.map((phase) => ({ phase, cost: phaseCost(phase) })).filter((entry): entry is { phase: Measured; cost: Cost } => entry.cost !== undefined);
  if (priced.length === 0) return;
  print();
  print('Cost per million delivered emails beyond SES, us-east-1 on-demand list prices (--cost; each phase\'s emails from its start until the pipeline drained; what was counted per email beside each):');
  for (const { phase, cost } of priced) {
    print();
    print(`${phaseName(phase)} (${phase.result.ok} emails):`);
    print(table(['service', 'per email', '$ per million'], [...cost.lines.map((line) => [line.service, line.measure, dollars(line.perMillion)]), ['total beyond SES', '', dollars(cost.beyondSes)], ['(SES\'s own charge)', '', dollars(cost.ses)]]));
    print(`Goal: at most ${dollars(COST_GOAL_PER_MILLION)} beyond SES: ${cost.beyondSes <= COST_GOAL_PER_MILLION ? 'PASS' : 'MISS'}`);
  }
  print();
  print('Prices (per unit; AWS page; where and when the figure was read):');
  for (const price of Object.values(PRICES)) print(`  ${price.usd.toPrecision(4)} USD per ${price.unit}: ${price.source} (${price.read})`);
  print('Not metered: CloudWatch Logs ingestion (Lambda\'s START/END/REPORT lines and ours), storage (DynamoDB, S3), data transfer, fixed monthly costs (NLB, Fargate, KMS keys).');
}
