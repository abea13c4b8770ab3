/**
 * Sending throughput: `POST /emails` against the embedded local cloud (in memory) at concurrency 1 and 32
 * for a fixed duration, next to "floors": the storage and queueing calls that one accepted email costs,
 * issued directly with the AWS SDK (no HTTP API, no Hono, no use case) against the same emulators in the
 * same run. Prints figures; asserts nothing.
 *
 *   npm run bench:send [-- --duration 10 --warmup 10 --concurrency 1,32 --delivered 50
 *                          --floors new-put (default) | old,new,new-put | none --floor-condition-check
 *                          --count-calls --cpu-prof --aws-latency --baseline 972b0e5 --template --cost
 *                          --tracked --tenant --html-kb 0,30 --stream-shards 100 --help]
 *
 * --count-calls  count every SDK call of every thread of the stack (sdk-preload.cjs): per accepted email
 *                on the request path (API thread, product calls) and per delivered email over the whole
 *                pipeline (all threads, phase start to drained), by origin (product, event-source =
 *                the Lambda service's pollers, emulator = calls an emulator makes on AWS's behalf,
 *                local-cloud) and operation; the failed conditional writes beside them
 *                (ConditionalCheckFailedException, TransactionCanceledException with a
 *                ConditionalCheckFailed reason); a verdict on product calls per delivered email <= 12;
 *                plus the most-written DynamoDB items (hot items).
 * --cpu-prof     sample every thread of every Node process of the stack (cpu-profile-preload.cjs) and
 *                summarise each phase per thread; and the product's own CPU per delivered email apart
 *                from the emulators' (report/product-cpu.ts), against the goal of 12 ms at c=16.
 * --aws-latency  delay each product and event-source SDK call (stack and floors) by an in-region AWS
 *                latency (aws-latency.cjs); report in-stack POST /emails latency against p50 <= 20 ms
 *                and p99 <= 50 ms.
 * --baseline C   run the same API phases on commit C (a git worktree in /tmp, node_modules linked from
 *                here, its own stack; the preloads of this checkout), and print both side by side.
 * --cost         meter what AWS bills by in every thread of the stack (DynamoDB capacity units by table and
 *                index, as DynamoDB reports them; SQS requests in 64 KB chunks; S3, SNS, KMS, Scheduler
 *                calls; Lambda invocations and billed duration from /health; API Gateway requests) and print
 *                dollars per million delivered emails by service for each API phase, at AWS's on-demand
 *                prices (lib/cost/prices.ts), against the goal of $5 beyond SES.
 * --tracked      open and click tracking on the domain, an html body with a link; with --cost, each API
 *                phase's delivered emails are then opened once (the pixel fetched with a mail client's
 *                User-Agent) and the opens priced per million (measure/tracked-opens.ts).
 * --tenant       the API phases send as one tenant of the account (per-tenant cost and partition figures;
 *                a new tenant's ramp allows 3,000 transactional recipients a day: keep the phases short).
 * --html-kb N,.. each concurrency runs one API phase per body: N KB of html beside the short text (0: the
 *                short text only), e.g. 0,30 for a small text email and a 30 KB html one side by side. The
 *                0 KB phase is 'API' (the headline, compared with the floors); the others 'API <N> KB html'.
 * --stream-shards N  the stack reads its table's stream as N shards (LOCAL_STREAM_SHARDS), as AWS has about
 *                one per partition: the stream functions get the batches N shards give, and with --cost the
 *                partition model shows each key's heat at that shard count.
 * --help         print this text.
 * --floors       which floors to run: old (4 GetItem, BatchGetItem, TransactWriteItems, SendMessage),
 *                new (BatchGetItem of 3+N keys + TransactWriteItems), new-put (the same with a PutItem),
 *                or none; default new-put (the headline's). --floor-condition-check adds a ConditionCheck on the API key to the new
 *                floor's transaction.
 *
 * Method (see docs/benchmarks.md, "Sending throughput"):
 *  - one stack per checkout (`spawnStack` of that checkout, DATA_IN_MEMORY=1: DynamoDB Local -inMemory);
 *  - an account on the `dedicated` plan (no daily/monthly cap) with a payment method, and a domain added
 *    through the API, its records published in the DNS emulator and verified, so sends are production
 *    sends (no sandbox caps) from bench@<domain> to success+<n>@simulator.amazonses.com;
 *  - a warm-up of --warmup seconds of API (and of the floors) at c=8 (DynamoDB Local's JVM needs
 *    thousands of requests to reach its speed);
 *  - closed-loop phases (each worker sends, waits for the answer, sends again) of --duration seconds:
 *    for each concurrency, API then each floor; after each, the pipeline (every worker queue) is drained
 *    before the next phase starts, so no phase inherits another's backlog;
 *  - the floors write real email items (a copy of an item the API wrote, new id): the table's stream
 *    (outbox relay) hands them to the send queue and the workers deliver them exactly as the API's, so
 *    every phase carries the same background work; the old floor's own SendMessage goes to a scratch
 *    queue (the relay already enqueues the email);
 *  - accept-to-delivered in its own phase: sequential sends, each polled with GET /emails/{id} every
 *    5 ms until `delivered`.
 *
 * This file is the entry point; the bench lives in send/: options.ts (the flags), run-bench.ts and
 * run-phases.ts (what runs in which order), floors/ (the floors' calls), measure/ (the counters around
 * each phase), report/ (the printed figures and the comparisons with the floors, the baseline and the
 * goals).
 */
import { readFileSync } from 'node:fs';
import { parseSendOptions } from './send/options';
import { runBench } from './send/run-bench';

if (process.argv.includes('--help') || process.argv.includes('-h')) {
  // This file's header is the bench's help.
  const header = /\/\*\*\n([\s\S]*?)\*\//.exec(readFileSync(__filename, 'utf8'))?.[1] ?? '';
  console.log(header.replace(/^ \* ?/gm, ''));
  process.exit(0);
}

runBench(parseSendOptions()).catch((error) => {
  console.error(error);
  process.exit(1);
});
