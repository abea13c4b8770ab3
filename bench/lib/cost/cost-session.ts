/**
 * The cost meter for a bench that drives a whole stack (bench:smtp, bench:automations, bench:inbound;
 * bench:send has it in its phases): the stack's environment that turns the SDK preload's metering on, a
 * mark before a phase, and after the phase (and the caller's drain of the pipeline) the usage since the
 * mark, priced per million (./price-usage.ts). Printing is shared with bench:send (printCostTable).
 */
import { join } from 'node:path';
import { callsBetween, failuresBetween, readSdkStates, unitsBetween, type SdkThreadState } from '../observe';
import { lambdaUsageBetween, readLambdaUsage, type LambdaUsage } from './lambda-usage';
import { priceUsage, type Cost } from './price-usage';
import { PRICES } from './prices';
import { table } from '../stats';

/** The SDK preload writes every 250 ms: wait this long before reading its files. */
const SETTLE_MS = 300;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export const COST_GOAL_PER_MILLION = 5;

export interface CostMark {
  sdk: Map<string, SdkThreadState>;
  lambda: LambdaUsage;
}

export interface CostSession {
  /** What the stack's environment needs (merge into spawnStack's env; NODE_OPTIONS preloads the meter). */
  stackEnv(existingNodeOptions?: string): Record<string, string>;
  mark(apiUrl: string): Promise<CostMark>;
  /** Usage since `mark`, priced: call it once the phase's emails are delivered and the pipeline drained. */
  since(mark: CostMark, apiUrl: string, counts: { emails: number; apiRequests: number }): Promise<Cost>;
}

/** A meter over the preload files of `sdkDir` (bench:send's, whose stack already has the preload). */
export function costMeterAt(sdkDir: string): CostSession {
  const read = () => readSdkStates(sdkDir);
  return {
    stackEnv: (existing = process.env.NODE_OPTIONS ?? '') => ({
      NODE_OPTIONS: `${existing} --require ${join(__dirname, '..', 'sdk-preload.cjs')}`.trim(),
      BENCH_SDK_DIR: sdkDir,
      BENCH_COST: '1',
    }),
    mark: async (apiUrl) => {
      await sleep(SETTLE_MS);
      return { sdk: read(), lambda: await readLambdaUsage(apiUrl) };
    },
    since: async (mark, apiUrl, counts) => {
      await sleep(SETTLE_MS);
      const after = read();
      return priceUsage({
        calls: callsBetween(mark.sdk, after, () => true),
        failures: failuresBetween(mark.sdk, after),
        units: unitsBetween(mark.sdk, after),
        lambda: lambdaUsageBetween(mark.lambda, await readLambdaUsage(apiUrl)),
        apiRequests: counts.apiRequests,
        emails: counts.emails,
      });
    },
  };
}

const dollars = (value: number) => `$${value.toFixed(2)}`;

/** One scenario's table: each service with what was counted per email and its dollars per million, the total and the goal. */
export function printCostTable(print: (line?: string) => void, title: string, cost: Cost): void {
  print(title);
  print(
    table(
      ['service', 'per email', '$ per million'],
      [
        ...cost.lines.map((line) => [line.service, line.measure, dollars(line.perMillion)]),
        ['total beyond SES', '', dollars(cost.beyondSes)],
        [
          'total beyond SES, the table provisioned (-c tableCapacity=provisioned, steady load at 70% use)',
          '',
          dollars(cost.beyondSesProvisioned),
        ],
        ["(SES's own charge: a la carte plan, $0.10 per 1,000)", '', dollars(cost.ses)],
        ["(SES's own charge: Essentials plan, $0.16 per 1,000, new accounts' default)", '', dollars(cost.sesEssentials)],
      ],
    ),
  );
  print(
    `Goal: at most ${dollars(COST_GOAL_PER_MILLION)} per million beyond SES: ${cost.beyondSes <= COST_GOAL_PER_MILLION ? 'PASS' : 'MISS'}`,
  );
}

/** The prices used, with their sources, and what is not metered. */
export function printPrices(print: (line?: string) => void): void {
  print('Prices (us-east-1 on-demand, per unit; AWS page; where and when the figure was read):');
  for (const price of Object.values(PRICES)) print(`  ${price.usd.toPrecision(4)} USD per ${price.unit}: ${price.source} (${price.read})`);
  print(
    "Not metered: storage (DynamoDB, S3, CloudWatch Logs), data transfer, fixed monthly costs (NLB, Fargate, KMS keys). CloudWatch Logs ingestion is metered: our lines at LOG_LEVEL=warn as written, Lambda's START/END/REPORT estimated per invocation.",
  );
}
