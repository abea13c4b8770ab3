/**
 * --cost: dollars per million delivered emails by AWS service, for each API phase (its emails, from the
 * phase's start until the pipeline drained), priced at AWS's on-demand list prices (bench/lib/cost/prices.ts),
 * against the goal of at most $5 beyond SES's own charge (issue 32).
 */
import { printCostTable, printPrices } from '../../lib/cost/cost-session';
import { partitionModel } from '../../lib/cost/partition-model';
import { printPartitionModel } from '../../lib/cost/partition-report';
import { BILLED_ORIGINS, priceUsage, type Cost } from '../../lib/cost/price-usage';
import type { Measured } from '../results';
import type { ReportContext } from './report-context';

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

/** The phase's partition model: its stream's write shares, its metered write units by table and index, its reads. */
function phaseModel(phase: Measured) {
  const meteredWrites: Record<string, number> = {};
  for (const [key, value] of Object.entries(phase.pipelineUnits ?? {})) {
    const [origin, service, meter = ''] = key.split('\t');
    if (service !== 'DynamoDB' || !meter.startsWith('WRU ') || !BILLED_ORIGINS.has(origin!)) continue;
    const where = meter.slice(4);
    meteredWrites[where] = (meteredWrites[where] ?? 0) + value;
  }
  return partitionModel({
    writes: phase.partitionWrites ?? {},
    meteredWrites,
    reads: phase.pipelinePartitionReads ?? {},
    emails: phase.result.ok,
  });
}

export function printCost({ print, all, phaseName, options }: ReportContext) {
  const priced = all
    .map((phase) => ({ phase, cost: phaseCost(phase) }))
    .filter((entry): entry is { phase: Measured; cost: Cost } => entry.cost !== undefined);
  if (priced.length === 0) return;
  print();
  print(
    "Cost per million delivered emails beyond SES (--cost; each phase's emails from its start until the pipeline drained; what was counted per email beside each):",
  );
  for (const { phase, cost } of priced) {
    print();
    printCostTable(print, `${phaseName(phase)} (${phase.result.ok} emails):`, cost);
    if (phase.partitionWrites) {
      print();
      printPartitionModel(
        print,
        `${phaseName(phase)}: the partition model at ${options.streamShards} stream shard${options.streamShards === 1 ? '' : 's'} (--stream-shards; write units from the table's stream, scaled to what DynamoDB reported per table and index; read units of the product's calls):`,
        phaseModel(phase),
      );
    }
    if (phase.opens) {
      print();
      printCostTable(
        print,
        `${phaseName(phase)}: one open of each (${phase.opens.opened} pixels fetched with a mail client's User-Agent${phase.opens.missing ? `; ${phase.opens.missing} messages without a pixel` : ''}), per million opens:`,
        phase.opens.cost,
      );
      print(`A tracked send opened once: $${(cost.beyondSes + phase.opens.cost.beyondSes).toFixed(2)} per million beyond SES.`);
    }
  }
  print();
  printPrices(print);
}
