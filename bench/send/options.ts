/**
 * bench:send's command line (node's util.parseArgs; the flags are described in bench/send.ts): every flag
 * with its default, read once into the options the orchestration, the measurement and the report share.
 * Refuses an unknown flag, an unknown floor, and --template with --baseline, before anything starts.
 */
import { parseArgs } from 'node:util';

export type FloorName = 'old' | 'new' | 'new-put';
const FLOOR_NAMES: FloorName[] = ['old', 'new', 'new-put'];

export interface SendBenchOptions {
  /** --duration, --warmup: the length of each measured phase and of the warm-up (ms). */
  durationMs: number;
  warmupMs: number;
  /** --concurrency: the measured phases' concurrencies, in order. */
  concurrencies: number[];
  /** --delivered: sequential sends of the accept-to-delivered phase. */
  deliveredSends: number;
  /** --floors: which floors run (empty for `none`). */
  floors: FloorName[];
  /** --floor-condition-check: a ConditionCheck on the API key in the new floor's transaction. */
  floorConditionCheck: boolean;
  cpuProf: boolean;
  countCalls: boolean;
  awsLatency: boolean;
  /** --baseline: the commit whose API phases run too. */
  baseline?: string;
  /**
   * --template: the API phases send by template (a published product template with a variable and managed
   * unsubscribe: the pointer read on the request path, the signed link and List-Unsubscribe in the worker).
   */
  template: boolean;
  /**
   * --cost: meter what AWS bills by (DynamoDB capacity units by table and index, SQS 64 KB requests, S3,
   * SNS, KMS, Scheduler, Lambda requests and GB-seconds, API Gateway) and print dollars per million
   * delivered emails by service, at AWS's on-demand prices (bench/lib/cost/prices.ts).
   */
  cost: boolean;
  /**
   * --tracked: the domain has open and click tracking, the sends an html body with a link; with --cost,
   * each API phase's delivered emails are then opened once each (their pixel fetched as a mail client
   * would) and the opens priced per million.
   */
  tracked: boolean;
  /**
   * --tenant: the API phases send as one tenant of the account (a new tenant: its ramp allows 3,000
   * transactional recipients a day, so keep the warm-up and phases under that), for the per-tenant figures.
   */
  tenant: boolean;
  /**
   * --html-kb: the API phases' bodies, in KB of html beside the short text (0: the short text only): each
   * concurrency runs one API phase per size, side by side (e.g. `0,30`: a small text email and a 30 KB html one).
   */
  htmlKbs: number[];
  /**
   * --stream-shards: the stack reads its table's stream as this many shards (LOCAL_STREAM_SHARDS,
   * docs/local-cloud/streams.md), as AWS has about one per partition: the stream functions' batches, and
   * what they write once per batch, as a table of that many partitions gives them.
   */
  streamShards: number;
  /** The SDK preload goes into the stack when calls are counted, latencies injected or costs metered. */
  observe: boolean;
}

/** Reads the command line (`args`, else the process's) or throws on a flag or value it refuses. */
export function parseSendOptions(args?: string[]): SendBenchOptions {
  const { values } = parseArgs({
    args,
    options: {
      duration: { type: 'string', default: '10' },
      warmup: { type: 'string', default: '10' },
      concurrency: { type: 'string', default: '1,32' },
      delivered: { type: 'string', default: '50' },
      // The headline's floor: what the product's plain send does (docs/benchmarks.md, "The floors").
      floors: { type: 'string', default: 'new-put' },
      'floor-condition-check': { type: 'boolean', default: false },
      'cpu-prof': { type: 'boolean', default: false },
      'count-calls': { type: 'boolean', default: false },
      'aws-latency': { type: 'boolean', default: false },
      baseline: { type: 'string' },
      template: { type: 'boolean', default: false },
      cost: { type: 'boolean', default: false },
      tracked: { type: 'boolean', default: false },
      tenant: { type: 'boolean', default: false },
      'html-kb': { type: 'string', default: '0' },
      'stream-shards': { type: 'string', default: '1' },
    },
  });
  const streamShards = Number(values['stream-shards']);
  if (!(Number.isInteger(streamShards) && streamShards >= 1 && streamShards <= 10_000))
    throw new Error(`--stream-shards takes a whole number from 1 to 10000, got '${values['stream-shards']}'`);
  if (values.tracked && values.template) throw new Error('--tracked and --template are separate scenarios: run them one at a time');
  if (values.tenant && values.baseline) throw new Error('--tenant cannot be combined with --baseline');
  if (values.template && values.baseline)
    throw new Error('--template cannot be combined with --baseline (older commits have no templates)');
  const htmlKbs = values['html-kb']!.split(',').map((part) => Number(part.trim()));
  if (htmlKbs.some((kb) => !(Number.isInteger(kb) && kb >= 0 && kb <= 1000)) || new Set(htmlKbs).size !== htmlKbs.length)
    throw new Error(`--html-kb takes distinct whole numbers of KB from 0 to 1000 (e.g. 0,30), got '${values['html-kb']}'`);
  if (htmlKbs.some((kb) => kb > 0) && (values.template || values.tracked))
    throw new Error('--html-kb is for plain sends: not with --template or --tracked');
  const floors = values.floors === 'none' ? [] : (values.floors!.split(',').map((name) => name.trim()) as FloorName[]);
  for (const floor of floors) if (!FLOOR_NAMES.includes(floor)) throw new Error(`unknown floor '${floor}' (old, new, new-put or none)`);
  return {
    durationMs: Number(values.duration) * 1000,
    warmupMs: Number(values.warmup) * 1000,
    concurrencies: values.concurrency!.split(',').map(Number),
    deliveredSends: Number(values.delivered),
    floors,
    floorConditionCheck: values['floor-condition-check']!,
    cpuProf: values['cpu-prof']!,
    countCalls: values['count-calls']!,
    awsLatency: values['aws-latency']!,
    baseline: values.baseline,
    template: values.template!,
    cost: values.cost!,
    tracked: values.tracked!,
    tenant: values.tenant!,
    htmlKbs,
    streamShards,
    observe: values['count-calls']! || values['aws-latency']! || values.cost!,
  };
}
