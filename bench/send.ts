/**
 * Sending throughput: `POST /emails` against the embedded local cloud (in memory) at concurrency 1 and 32
 * for a fixed duration, next to "floors": the storage and queueing calls that one accepted email costs,
 * issued directly with the AWS SDK (no HTTP API, no Hono, no use case) against the same emulators in the
 * same run. Prints figures; asserts nothing.
 *
 *   npm run bench:send [-- --duration 10 --warmup 10 --concurrency 1,32 --delivered 50
 *                          --floors old,new[,new-put] --floor-condition-check
 *                          --count-calls --cpu-prof --aws-latency --baseline 972b0e5 --template]
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
 *                summarise each phase per thread.
 * --aws-latency  delay each product and event-source SDK call (stack and floors) by an in-region AWS
 *                latency (aws-latency.cjs); report in-stack POST /emails latency against p50 <= 20 ms
 *                and p99 <= 50 ms.
 * --baseline C   run the same API phases on commit C (a git worktree in /tmp, node_modules linked from
 *                here, its own stack; the preloads of this checkout), and print both side by side.
 * --floors       which floors to run: old (4 GetItem, BatchGetItem, TransactWriteItems, SendMessage),
 *                new (BatchGetItem of 3+N keys + TransactWriteItems), new-put (the same with a PutItem),
 *                or none. --floor-condition-check adds a ConditionCheck on the API key to the new
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
 */
import { jsonCaller, verifiedDomain } from './lib/fixtures';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync, unlinkSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { BatchGetCommand, GetCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { CreateQueueCommand, DeleteQueueCommand, GetQueueAttributesCommand, GetQueueUrlCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { cpuSecondsByRole, descendants, rssMb, threadCpuSeconds, type ProcessRole } from './lib/process-tree';
import { closedLoop, HttpClient, serverTimingMs, type Outcome, type PhaseResult } from './lib/load';
import { ms, summarise, table } from './lib/stats';
import { addProjectRoot, bucketOf, profiledThreads, summariseCpuProfiles, type ProfiledThread, type ProfileSummary } from './lib/cpu-profile';
import { callsBetween, hotItems, injectedBetween, readSdkStates, splitCall, type HotItems, type SdkThreadState } from './lib/observe';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { LATENCY } = require('./lib/aws-latency.cjs') as { LATENCY: Record<string, { p50: number; p99: number; source: string }> };

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '10' },
    concurrency: { type: 'string', default: '1,32' },
    delivered: { type: 'string', default: '50' },
    floors: { type: 'string', default: 'old,new' },
    'floor-condition-check': { type: 'boolean', default: false },
    'cpu-prof': { type: 'boolean', default: false },
    'count-calls': { type: 'boolean', default: false },
    'aws-latency': { type: 'boolean', default: false },
    baseline: { type: 'string' },
    template: { type: 'boolean', default: false },
  },
});
/**
 * --template: the API phases send by template (a published product template with a variable and managed
 * unsubscribe: the pointer read on the request path, the signed link and List-Unsubscribe in the worker).
 */
const TEMPLATE = values.template!;
if (TEMPLATE && values.baseline) throw new Error('--template cannot be combined with --baseline (older commits have no templates)');
const DURATION_MS = Number(values.duration) * 1000;
const WARMUP_MS = Number(values.warmup) * 1000;
const CONCURRENCIES = values.concurrency!.split(',').map(Number);
const DELIVERED_SENDS = Number(values.delivered);
const CPU_PROF = values['cpu-prof']!;
const COUNT_CALLS = values['count-calls']!;
const AWS_LATENCY = values['aws-latency']!;
const CONDITION_CHECK = values['floor-condition-check']!;
const BASELINE = values.baseline;
type FloorName = 'old' | 'new' | 'new-put';
const FLOORS = values.floors === 'none' ? [] : (values.floors!.split(',').map((name) => name.trim()) as FloorName[]);
for (const floor of FLOORS) if (!['old', 'new', 'new-put'].includes(floor)) throw new Error(`unknown floor '${floor}' (old, new, new-put or none)`);
/** The SDK preload goes into the stack when calls are counted or latencies injected. */
const OBSERVE = COUNT_CALLS || AWS_LATENCY;
const TARGET_CONCURRENCY = 32;
const MAX_CONCURRENCY = Math.max(...CONCURRENCIES);
const POLL_MS = 5;
/** The preloads flush every 250 ms: wait this long before reading their files. */
const SETTLE_MS = 300;
const CPU_PROFILE_CHUNK_MS = 3000;
const GOAL = { p50: 20, p99: 50 };
/** Goal for the whole pipeline: product SDK calls per delivered email (request path included). */
const PRODUCT_CALLS_GOAL = 12;

const ROOT = resolve(__dirname, '..');
const log = (message: string) => console.error(`[bench:send] ${message}`);
const hrtimeMicros = () => Number(process.hrtime.bigint() / 1000n);
const sleep = (msec: number) => new Promise((resolveSleep) => setTimeout(resolveSleep, msec));

// --- The product modules of a checkout (this one, or the baseline's worktree), loaded by path.
interface StackInfoLike {
  pid: number;
  env: Record<string, string>;
}
interface SpawnedStackLike {
  apiUrl: string;
  child: { pid?: number };
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}
interface Checkout {
  root: string;
  spawnStack(options: { dataDir: string; inMemory: boolean; env?: Record<string, string>; timeoutMs?: number }): Promise<SpawnedStackLike>;
  readStackFile(dataDir: string): StackInfoLike | null;
  queues(): { name: string; dlqName: string; envVar: string }[];
}
// eslint-disable-next-line @typescript-eslint/no-require-imports, @typescript-eslint/no-explicit-any
const load = (root: string, path: string): any => require(join(root, path));
const checkoutAt = (root: string): Checkout => ({
  root,
  spawnStack: (options) => load(root, 'test/integration/harness/spawn-stack').spawnStack(options),
  readStackFile: (dataDir) => load(root, 'localstack/cloud/stack-file').readStackFile(dataDir),
  queues: () => Object.values(load(root, 'infra/definitions').QUEUES),
});

// --- What one phase measured.
interface Window {
  /** CLOCK_MONOTONIC microseconds (CPU profiles). */
  from: number;
  to: number;
  /** Epoch ms (hot items). */
  fromMs: number;
  toMs: number;
}
interface CpuSplit {
  roles: Record<ProcessRole, number>;
  /** Stack process threads by label (seconds), when their OS thread ids are known. */
  threads: Record<string, number>;
  bench: number;
}
interface Measured {
  target: string;
  /** 'API', or 'floor old' / 'floor new' / 'floor new-put'. */
  name: string;
  floor?: FloorName;
  result: PhaseResult;
  /** Floors: mean ms per step, and TransactWriteItems attempts per send. */
  steps?: { name: string; meanMs: number }[];
  transactAttemptsPerSend?: number;
  cpu: CpuSplit;
  /** From the phase's start to the end of its drain: the whole cost of the phase's emails. */
  cpuWithDrain: CpuSplit;
  backlog: number;
  drainMs: number;
  window: Window;
  /** SDK calls made during the phase by the stack's API thread (pid's main thread). */
  requestCalls?: Record<string, number>;
  /** SDK calls made by the bench process (the floor's own calls) during the phase. */
  benchCalls?: Record<string, number>;
  /** SDK calls made by every thread of the stack from the phase's start to the end of its drain. */
  pipelineCalls?: Record<string, number>;
  /** Failed conditional writes of every thread of the stack, same window as pipelineCalls. */
  pipelineFailures?: Record<string, number>;
  injected?: Record<string, { count: number; meanMs: number }>;
  hot?: HotItems;
  /** --cpu-prof: per thread label, the summary of the phase's window. */
  profiles?: { label: string; summary: ProfileSummary }[];
}
interface TargetResult {
  label: string;
  commit: string;
  phases: Measured[];
  accepted: number[];
  delivered: number[];
  undelivered: number;
  idleRss: number;
  busyRss: number;
  dlqDepths: Record<string, number>;
  threadLabels: string[];
  queueNames: string[];
  floorSteps: Partial<Record<FloorName, string[]>>;
  domainName: string;
}

const FLOOR_STEPS: Record<FloorName, string[]> = {
  old: [
    'GetItem APIKEYHASH#<sha256> (consistent)',
    'GetItem ACCOUNT#<acc> (consistent)',
    'GetItem DOMAINNAME#<name> (consistent)',
    'GetItem DOMAIN#<dom> (consistent)',
    'BatchGetItem SUPPRESSION#<acc>#<to> (consistent, projection email)',
    'TransactWriteItems: Put EMAIL#<msg> + ADD usage PLAN DAY + ADD usage PLAN MONTH',
    'SQS SendMessage {email_id}',
  ],
  new: [
    'BatchGetItem (consistent): APIKEYHASH#<sha256>, ACCOUNT#<acc>, DOMAINNAME#<name>, SUPPRESSION#<acc>#<to>',
    `TransactWriteItems: Put EMAIL#<msg> (attribute_not_exists)${CONDITION_CHECK ? ' + ConditionCheck APIKEYHASH#<sha256> (attribute_exists)' : ''}`,
  ],
  'new-put': [
    'BatchGetItem (consistent): APIKEYHASH#<sha256>, ACCOUNT#<acc>, DOMAINNAME#<name>, SUPPRESSION#<acc>#<to>',
    'PutItem EMAIL#<msg> (attribute_not_exists)',
  ],
};

/**
 * The preload's failed conditional writes ("origin\tservice\toperation" -> count) in the shape of its
 * call counts, so callsBetween diffs them the same way.
 */
function failuresOf(states: Map<string, SdkThreadState>): Map<string, SdkThreadState> {
  return new Map([...states].map(([id, state]) => [id, { ...state, calls: (state as SdkThreadState & { conditionalFailures?: Record<string, number> }).conditionalFailures ?? {} }]));
}

/** Product SDK calls per delivered email over the phase and its drain (every thread of the stack). */
function productCallsPerEmail(phase: Measured): number {
  const product = Object.entries(phase.pipelineCalls ?? {}).filter(([key]) => splitCall(key).origin === 'product');
  return product.reduce((sum, [, count]) => sum + count, 0) / (phase.result.ok || 1);
}

/** The SDK preload in this process (the floors' calls: counted, and delayed under --aws-latency). */
let benchSdk: { tag(client: unknown, origin: string): void } | null = null;
let benchSdkDir: string | undefined;

async function main() {
  const loadBefore = loadavg();
  const started = Date.now();
  const scratch = mkdtempSync(join(tmpdir(), 'mailservice-bench-send-'));
  if (OBSERVE) {
    // Loaded here before any SDK client exists; its environment is read once, then removed so that the
    // stacks get their own.
    benchSdkDir = join(scratch, 'bench-sdk');
    process.env.BENCH_SDK_DIR = benchSdkDir;
    if (AWS_LATENCY) process.env.BENCH_AWS_LATENCY = '1';
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    benchSdk = require('./lib/sdk-preload.cjs');
    delete process.env.BENCH_SDK_DIR;
    delete process.env.BENCH_AWS_LATENCY;
  }
  let worktree: { dir: string; sha: string; remove(): void } | undefined;
  const cleanup = () => {
    worktree?.remove();
    worktree = undefined;
    rmSync(scratch, { recursive: true, force: true });
  };
  process.once('SIGINT', () => {
    cleanup();
    process.exit(130);
  });
  try {
    const results: TargetResult[] = [];
    results.push(await runTarget({ label: 'current', root: ROOT, withFloors: true }, scratch));
    if (BASELINE) {
      try {
        worktree = createWorktree(ROOT, BASELINE);
        addProjectRoot(worktree.dir);
        results.push(await runTarget({ label: `baseline ${worktree.sha.slice(0, 7)}`, root: worktree.dir, withFloors: false }, scratch));
      } catch (error) {
        // The current figures stand on their own: report them, and say why the baseline is missing.
        log(`baseline ${BASELINE} failed: ${(error as Error).stack ?? String(error)}`);
        console.log(`(baseline ${BASELINE} failed and is not reported: ${(error as Error).message.split('\n')[0]})`);
      }
    }
    console.log(report(results, loadBefore, loadavg(), (Date.now() - started) / 1000));
  } finally {
    cleanup();
  }
}

/** A detached worktree of `commit` in /tmp with this checkout's node_modules linked in. */
function createWorktree(repo: string, commit: string): { dir: string; sha: string; remove(): void } {
  const sha = execFileSync('git', ['-C', repo, 'rev-parse', '--verify', `${commit}^{commit}`], { encoding: 'utf8' }).trim();
  const dir = join(tmpdir(), `mailservice-baseline-${sha.slice(0, 7)}-${process.pid}`);
  log(`baseline: git worktree add --detach ${dir} ${sha.slice(0, 7)}`);
  execFileSync('git', ['-C', repo, 'worktree', 'add', '--detach', '--quiet', dir, sha], { stdio: ['ignore', 'ignore', 'inherit'] });
  symlinkSync(join(repo, 'node_modules'), join(dir, 'node_modules'));
  return {
    dir,
    sha,
    remove: () => {
      try {
        unlinkSync(join(dir, 'node_modules'));
      } catch {
        // already gone
      }
      try {
        execFileSync('git', ['-C', repo, 'worktree', 'remove', '--force', dir], { stdio: 'ignore' });
      } catch {
        rmSync(dir, { recursive: true, force: true });
        execFileSync('git', ['-C', repo, 'worktree', 'prune'], { stdio: 'ignore' });
      }
      log(`baseline: worktree ${dir} removed`);
    },
  };
}

/** This process's environment before any stack's was added to it (each stack must start from it). */
const PRISTINE_ENV = { ...process.env };

function restoreEnvironment() {
  for (const key of Object.keys(process.env)) if (!(key in PRISTINE_ENV)) delete process.env[key];
  Object.assign(process.env, PRISTINE_ENV);
}

async function runTarget(target: { label: string; root: string; withFloors: boolean }, scratch: string): Promise<TargetResult> {
  // The previous stack's environment (endpoints, DNS_RESOLVERS, table name) must not leak into this one.
  restoreEnvironment();
  const checkout = checkoutAt(target.root);
  const commit = execFileSync('git', ['-C', target.root, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
  const dataDir = mkdtempSync(join(scratch, `${target.label.split(' ')[0]}-`));
  const profDir = join(dataDir, 'cpu-prof');
  const sdkDir = join(dataDir, 'sdk');
  const preloads = [...(CPU_PROF ? ['cpu-profile-preload.cjs'] : []), ...(OBSERVE ? ['sdk-preload.cjs'] : [])];
  log(`${target.label} (${target.root}, ${commit}): starting an in-memory local cloud${preloads.length ? ` with ${preloads.join(', ')}` : ''}${AWS_LATENCY ? ' and AWS latencies' : ''}`);
  const stack = await checkout.spawnStack({
    dataDir,
    inMemory: true,
    timeoutMs: 120_000,
    env: {
      // The reconciler at AWS's cadence (once a minute), not the local 2 s: its background reads are not
      // part of an email's cost (32 Query calls a minute on AWS, whatever the volume).
      LOCAL_TASK_PERIOD_MS: '60000',
      ...(preloads.length
      ? {
          NODE_OPTIONS: [process.env.NODE_OPTIONS ?? '', ...preloads.map((file) => `--require ${join(__dirname, 'lib', file)}`)].join(' ').trim(),
          ...(CPU_PROF ? { CPU_PROFILE_DIR: profDir, CPU_PROFILE_CHUNK_MS: String(CPU_PROFILE_CHUNK_MS) } : {}),
          ...(OBSERVE ? { BENCH_SDK_DIR: sdkDir } : {}),
          ...(AWS_LATENCY ? { BENCH_AWS_LATENCY: '1' } : {}),
        }
      : {}),
    },
  });
  try {
    return await runPhases(target, checkout, commit, stack, dataDir, profDir, sdkDir);
  } finally {
    await stack.stop('SIGINT');
  }
}

async function runPhases(
  target: { label: string; root: string; withFloors: boolean },
  checkout: Checkout,
  commit: string,
  stack: SpawnedStackLike,
  dataDir: string,
  profDir: string,
  sdkDir: string,
): Promise<TargetResult> {
  const info = checkout.readStackFile(dataDir)!;
  Object.assign(process.env, info.env);
  const stackPid = info.pid;
  // Product modules read the environment when loaded: load them (this checkout's) after it is set.
  const { buildServices } = load(target.root, 'shared/services');
  const { loadConfig } = load(target.root, 'shared/config');
  const { createAccount } = load(target.root, 'shared/usecases/accounts');
  const config = loadConfig(process.env);
  const services = buildServices(config);
  const pids = descendants(stack.child.pid!);

  // The bench's own SQS client for the drain checks (not a call of the service: never delayed).
  const control = new SQSClient({ region: config.region, endpoint: info.env.AWS_ENDPOINT_URL_SQS });
  benchSdk?.tag(control, 'bench-control');

  // --- Fixtures: a dedicated-plan account with a payment method and a verified domain.
  const suffix = Math.random().toString(36).slice(2, 8);
  const { account, secret } = await createAccount(services, { email: `bench-${suffix}@example.com`, plan: 'dedicated', paymentMethod: true, tenants: false });
  const headers = { authorization: `Bearer ${secret}`, 'content-type': 'application/json' };
  const setup = new HttpClient(stack.apiUrl, 4);
  const call = jsonCaller(setup, headers);
  const domainName = `bench-${suffix}.example-mail.test`;
  await verifiedDomain(call, domainName);
  const from = `bench@${domainName}`;
  if (TEMPLATE) {
    await call('POST', '/templates', {
      alias: 'bench',
      name: 'Bench',
      category: 'product',
      subject: 'bench {{n}}',
      html: '<p>hello {{n}}</p><p><a href="{{unsubscribe_url}}">Unsubscribe</a></p>',
      text: 'hello {{n}} {{unsubscribe_url}}',
      variables: [{ key: 'n', type: 'number' }],
    });
    await call('POST', '/templates/bench/publish');
  }
  const sendBody = (n: number) =>
    JSON.stringify(TEMPLATE ? { from, to: recipient(n), template: { id: 'bench', variables: { n } } } : { from, to: recipient(n), subject: `bench ${n}`, text: 'hello' });
  const idleRss = rssMb(pids);

  let sequence = 0;
  const recipient = (n: number) => `success+${n}@simulator.amazonses.com`;
  const apiSend = async (client: HttpClient, n: number): Promise<Outcome & { id?: string }> => {
    const response = await client.request('POST', '/emails', headers, sendBody(n));
    const serverMs = serverTimingMs(response.headers);
    if (response.status === 200) return { ok: true, label: '200', id: (JSON.parse(response.text) as { id: string }).id, serverMs };
    let code = '';
    try {
      code = (JSON.parse(response.text) as { error?: { code?: string } }).error?.code ?? '';
    } catch {
      // not JSON
    }
    return { ok: false, label: `${response.status}${code ? ` ${code}` : ''}`, serverMs };
  };

  // --- The floors (this checkout only).
  const floors = target.withFloors && FLOORS.length ? await makeFloors({ root: target.root, config, account, secret, domainName, apiSend: (n) => apiSend(setup, n), recipient }) : undefined;

  // --- Pipeline drain between phases: every worker queue empty (nothing visible, in flight or delayed)
  // for 5 checks in a row, 100 ms apart (covers the SES emulator's 20 ms outcome delay).
  const queues = checkout.queues();
  const workerQueues = queues.map((queue) => info.env[queue.envVar]).filter((url): url is string => Boolean(url));
  const queueDepth = async (url: string) => {
    const { Attributes = {} } = await control.send(
      new GetQueueAttributesCommand({
        QueueUrl: url,
        AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible', 'ApproximateNumberOfMessagesDelayed'],
      }),
    );
    return Number(Attributes.ApproximateNumberOfMessages ?? 0) + Number(Attributes.ApproximateNumberOfMessagesNotVisible ?? 0) + Number(Attributes.ApproximateNumberOfMessagesDelayed ?? 0);
  };
  const pipelineDepth = async () => (await Promise.all(workerQueues.map(queueDepth))).reduce((a, b) => a + b, 0);
  const drain = async (): Promise<number> => {
    const startedAt = performance.now();
    let quiet = 0;
    while (quiet < 5) {
      if (performance.now() - startedAt > 300_000) {
        log('pipeline did not drain within 300 s; continuing');
        break;
      }
      quiet = (await pipelineDepth()) === 0 ? quiet + 1 : 0;
      await sleep(100);
    }
    return performance.now() - startedAt;
  };

  // --- The stack process's JS threads and their OS thread ids (reported by the preloads).
  if (OBSERVE || CPU_PROF) await sleep(SETTLE_MS);
  const threads = stackThreads(stackPid, OBSERVE ? [...readSdkStates(sdkDir).values()] : [], CPU_PROF ? profiledThreads(profDir) : []);
  const threadCpu = () => Object.fromEntries(threads.map((thread) => [thread.label, threadCpuSeconds(stackPid, thread.tid)]));
  const cpuNow = () => ({ roles: cpuSecondsByRole(pids), threads: threadCpu() });
  const cpuSince = (before: { roles: Record<ProcessRole, number>; threads: Record<string, number> }, benchBefore: NodeJS.CpuUsage): CpuSplit => {
    const now = cpuNow();
    const bench = process.cpuUsage(benchBefore);
    return {
      roles: Object.fromEntries(Object.entries(now.roles).map(([role, seconds]) => [role, seconds - before.roles[role as ProcessRole]])) as Record<ProcessRole, number>,
      threads: Object.fromEntries(Object.entries(now.threads).map(([label, seconds]) => [label, seconds - (before.threads[label] ?? NaN)])),
      bench: (bench.user + bench.system) / 1e6,
    };
  };

  const measure = async (name: string, concurrency: number, durationMs: number, floor?: FloorName): Promise<Measured> => {
    const client = new HttpClient(stack.apiUrl, concurrency);
    const floorRun = floor ? floors![floor] : undefined;
    floorRun?.reset();
    const operation = floorRun ? (n: number) => floorRun.send(n) : (n: number) => apiSend(client, n);
    if (OBSERVE) await sleep(SETTLE_MS);
    const sdkBefore = OBSERVE ? readSdkStates(sdkDir) : undefined;
    const benchSdkBefore = benchSdkDir ? readSdkStates(benchSdkDir) : undefined;
    const cpuBefore = cpuNow();
    const benchBefore = process.cpuUsage();
    const window: Window = { from: hrtimeMicros(), to: 0, fromMs: Date.now(), toMs: 0 };
    const result = await closedLoop(concurrency, durationMs, () => operation(sequence++));
    window.to = hrtimeMicros();
    window.toMs = Date.now();
    const cpu = cpuSince(cpuBefore, benchBefore);
    client.close();
    const sends = result.latencies.length || 1;
    let requestCalls: Record<string, number> | undefined;
    let benchCalls: Record<string, number> | undefined;
    if (OBSERVE) {
      await sleep(SETTLE_MS);
      requestCalls = callsBetween(sdkBefore!, readSdkStates(sdkDir), (state) => state.pid === stackPid && state.mainThread);
      if (benchSdkDir) benchCalls = callsBetween(benchSdkBefore!, readSdkStates(benchSdkDir), () => true);
    }
    const backlog = await pipelineDepth();
    const drainMs = await drain();
    const cpuWithDrain = cpuSince(cpuBefore, benchBefore);
    let pipelineCalls: Record<string, number> | undefined;
    let pipelineFailures: Record<string, number> | undefined;
    let injected: Record<string, { count: number; meanMs: number }> | undefined;
    let hot: HotItems | undefined;
    if (OBSERVE) {
      await sleep(SETTLE_MS);
      const after = readSdkStates(sdkDir);
      pipelineCalls = callsBetween(sdkBefore!, after, () => true);
      pipelineFailures = callsBetween(failuresOf(sdkBefore!), failuresOf(after), () => true);
      injected = injectedBetween(sdkBefore!, after);
      hot = hotItems(sdkDir, window.fromMs, window.toMs);
    }
    return {
      target: target.label,
      name,
      floor,
      result,
      steps: floorRun ? floorRun.steps.map((step, i) => ({ name: step, meanMs: floorRun.stepMs[i]! / sends })) : undefined,
      transactAttemptsPerSend: floorRun ? floorRun.transactAttempts() / sends : undefined,
      cpu,
      cpuWithDrain,
      backlog,
      drainMs,
      window,
      requestCalls,
      benchCalls,
      pipelineCalls,
      pipelineFailures,
      injected,
      hot,
    };
  };

  // --- Warm-up (JIT, connection pools, DynamoDB Local's JVM), then the measured phases.
  const floorNames = floors ? FLOORS : [];
  const floorWarmMs = floorNames.length ? Math.max(2000, WARMUP_MS / floorNames.length) : 0;
  log(`${target.label}: warm-up ${WARMUP_MS / 1000} s API${floorNames.length ? ` and ${(floorWarmMs / 1000).toFixed(1)} s per floor (${floorNames.join(', ')})` : ''} at concurrency 8`);
  const warm = [await measure('API', 8, WARMUP_MS)];
  for (const floor of floorNames) warm.push(await measure(`floor ${floor}`, 8, floorWarmMs, floor));
  for (const phase of warm) if (phase.result.errors) log(`warm-up errors (${phase.name}): ${JSON.stringify(phase.result.outcomes)}`);

  const phases: Measured[] = [];
  for (const concurrency of CONCURRENCIES) {
    for (const floor of [undefined, ...floorNames]) {
      const name = floor ? `floor ${floor}` : 'API';
      log(`${target.label}: ${name} at concurrency ${concurrency} for ${DURATION_MS / 1000} s`);
      const phase = await measure(name, concurrency, DURATION_MS, floor);
      log(`  ${phase.result.latencies.length} requests, ${phase.result.errors} errors; backlog ${phase.backlog} drained in ${(phase.drainMs / 1000).toFixed(1)} s`);
      phases.push(phase);
    }
  }

  // --- Accept-to-delivered, its own phase: one send at a time, polled every 5 ms.
  log(`${target.label}: accept-to-delivered, ${DELIVERED_SENDS} sequential sends polled every ${POLL_MS} ms`);
  const deliveredClient = new HttpClient(stack.apiUrl, 2);
  const accepted: number[] = [];
  const delivered: number[] = [];
  let undelivered = 0;
  for (let i = 0; i < DELIVERED_SENDS; i++) {
    const t0 = performance.now();
    const sent = await apiSend(deliveredClient, sequence++);
    accepted.push(performance.now() - t0);
    if (!sent.id) {
      undelivered++;
      continue;
    }
    for (;;) {
      const response = await deliveredClient.request('GET', `/emails/${sent.id}`, headers);
      if (response.status === 200 && (JSON.parse(response.text) as { email: { status: string } }).email.status === 'delivered') {
        delivered.push(performance.now() - t0);
        break;
      }
      if (performance.now() - t0 > 30_000) {
        undelivered++;
        break;
      }
      await sleep(POLL_MS);
    }
  }
  deliveredClient.close();
  setup.close();
  await floors?.close();

  const dlqDepths: Record<string, number> = {};
  for (const queue of queues) {
    try {
      const { QueueUrl } = await control.send(new GetQueueUrlCommand({ QueueName: queue.dlqName }));
      dlqDepths[queue.dlqName] = await queueDepth(QueueUrl!);
    } catch {
      // a queue without a DLQ
    }
  }
  const busyRss = rssMb(pids);

  if (CPU_PROF) {
    // The last chunk of a worker thread is written on the next tick of its chunk timer (a terminated
    // thread never emits 'exit'): wait one chunk so every phase window is on disk.
    await sleep(CPU_PROFILE_CHUNK_MS + 500);
    const profiled = profiledThreads(profDir);
    for (const phase of phases) {
      phase.profiles = profiled.map((thread) => ({ label: threadLabel(thread, stackPid), summary: summariseCpuProfiles(thread.files, phase.window) }));
    }
  }
  control.destroy();

  return {
    label: target.label,
    commit,
    phases,
    accepted,
    delivered,
    undelivered,
    idleRss,
    busyRss,
    dlqDepths,
    threadLabels: threads.map((thread) => thread.label),
    queueNames: queues.map((queue) => queue.name),
    floorSteps: Object.fromEntries(floorNames.map((floor) => [floor, floors![floor].steps])),
    domainName,
  };
}

/** The stack process's JS threads (API thread, workers thread, ...) with their OS thread ids. */
function stackThreads(stackPid: number, sdk: SdkThreadState[], profiled: ProfiledThread[]): { label: string; tid: number }[] {
  const byThread = new Map<number, { label: string; tid: number }>();
  for (const state of sdk) if (state.pid === stackPid && state.tid) byThread.set(state.threadId, { label: threadLabel({ ...state, role: state.mainThread ? 'main' : 'worker' }, stackPid), tid: state.tid });
  for (const thread of profiled) if (thread.pid === stackPid && thread.tid && !byThread.has(thread.threadId)) byThread.set(thread.threadId, { label: threadLabel(thread, stackPid), tid: thread.tid });
  return [...byThread.entries()].sort((a, b) => a[0] - b[0]).map(([, thread]) => thread);
}

function threadLabel(thread: { pid: number; threadId: number; role: string; argv1: string }, stackPid: number): string {
  const process = thread.pid === stackPid ? 'stack' : `pid ${thread.pid}${thread.argv1.endsWith('cli.mjs') ? ' (tsx launcher)' : ''}`;
  if (thread.role === 'main') return thread.pid === stackPid ? 'API thread' : `${process} main`;
  if (thread.role === 'loader-hooks') return thread.pid === stackPid ? 'tsx loader-hooks thread' : `${process} tsx loader-hooks thread`;
  if (thread.argv1.endsWith('workers-thread-entry.cjs')) return 'workers thread';
  return `${process} thread ${thread.threadId}${thread.argv1 ? ` (${basename(thread.argv1)})` : ''}`;
}

interface FloorRun {
  steps: string[];
  stepMs: number[];
  reset(): void;
  transactAttempts(): number;
  send(n: number): Promise<Outcome>;
}

/**
 * The floors: the calls one accepted send costs, issued directly with the product's own SDK clients
 * (shared/aws/clients.ts: same keep-alive, timeouts, retries). The email item is a copy of one the API
 * just wrote (new id, recipient, subject, time), so the pipeline delivers the floors' emails as the API's.
 */
async function makeFloors(context: {
  root: string;
  config: { tableName: string; region: string };
  account: { id: string };
  secret: string;
  domainName: string;
  apiSend(n: number): Promise<Outcome & { id?: string }>;
  recipient(n: number): string;
}): Promise<Record<FloorName, FloorRun> & { close(): Promise<void> }> {
  const { createAwsClients } = load(context.root, 'shared/aws/clients');
  const { hashSecret } = load(context.root, 'shared/domain/api-keys/secret');
  const { keys } = load(context.root, 'shared/store/keys');
  const { transactWrite } = load(context.root, 'shared/store/table');
  const { newId } = load(context.root, 'shared/domain/ids');
  const clients = createAwsClients(context.config) as { dynamo: DynamoDBDocumentClient; sqs: SQSClient };
  benchSdk?.tag(clients.dynamo, 'bench');
  benchSdk?.tag(clients.sqs, 'bench');
  const TableName = context.config.tableName;
  const keyHash = hashSecret(context.secret);
  const accountId = context.account.id;
  const doc = clients.dynamo;

  // The template: an email item as the API writes it, read before the pipeline touched it.
  let template: Record<string, unknown> | undefined;
  for (let attempt = 0; attempt < 5 && !template; attempt++) {
    const sent = await context.apiSend(-1 - attempt);
    if (!sent.id) throw new Error(`template send failed: ${sent.label}`);
    const { Item } = await doc.send(new GetCommand({ TableName, Key: keys.email(sent.id), ConsistentRead: true }));
    if (Item && Item.status === 'queued' && Item.send_lease_until === undefined) template = Item;
  }
  if (!template) throw new Error('could not read an email item in its accepted state for the floors');
  const emailItem = (n: number, withDeferredUsage: boolean) => {
    const now = new Date();
    const id = newId('msg', now.getTime()) as string;
    const item: Record<string, unknown> = { ...template, ...keys.email(id), GSI1SK: id, id, to: [context.recipient(n)], subject: `bench ${n}`, created_at: now.toISOString() };
    if (!withDeferredUsage) delete item.usage_deferred;
    return item;
  };

  // The old path's SendMessage goes to a scratch queue: the outbox relay already enqueues the email.
  const { QueueUrl: sinkUrl } = await clients.sqs.send(new CreateQueueCommand({ QueueName: `bench-old-floor-sink-${Date.now()}` }));

  const run = (steps: string[], send: (timed: <T>(step: number, work: () => Promise<T>) => Promise<T>, counting: unknown, n: number) => Promise<void>): FloorRun => {
    let attempts = 0;
    const counting = { name: TableName, client: { send: (command: unknown) => (attempts++, doc.send(command as never)) } };
    const self: FloorRun = {
      steps,
      stepMs: steps.map(() => 0),
      reset: () => {
        self.stepMs = steps.map(() => 0);
        attempts = 0;
      },
      transactAttempts: () => attempts,
      send: async (n) => {
        const timed = async <T>(step: number, work: () => Promise<T>): Promise<T> => {
          const t0 = performance.now();
          try {
            return await work();
          } finally {
            self.stepMs[step]! += performance.now() - t0;
          }
        };
        await send(timed, counting, n);
        return { ok: true, label: 'ok' };
      },
    };
    return self;
  };

  const old = run(FLOOR_STEPS.old, async (timed, counting, n) => {
    const key = await timed(0, () => doc.send(new GetCommand({ TableName, Key: keys.apiKeyHash(keyHash), ConsistentRead: true })));
    const owner = await timed(1, () => doc.send(new GetCommand({ TableName, Key: keys.account(key.Item!.account_id as string), ConsistentRead: true })));
    const ownerId = owner.Item!.id as string;
    const claim = await timed(2, () => doc.send(new GetCommand({ TableName, Key: keys.domainName(context.domainName), ConsistentRead: true })));
    await timed(3, () => doc.send(new GetCommand({ TableName, Key: keys.domain(claim.Item!.domain_id as string), ConsistentRead: true })));
    const to = context.recipient(n);
    await timed(4, () =>
      doc.send(
        new BatchGetCommand({
          RequestItems: { [TableName]: { Keys: [keys.suppression(ownerId, to, null)], ConsistentRead: true, ProjectionExpression: '#p0', ExpressionAttributeNames: { '#p0': 'email' } } },
        }),
      ),
    );
    const item = emailItem(n, false);
    const day = new Date().toISOString().slice(0, 10);
    const usage = (period: 'DAY' | 'MONTH', value: string) => ({
      Update: {
        TableName,
        Key: keys.usage(ownerId, 'PLAN', period, value),
        UpdateExpression: 'ADD #count :n',
        ExpressionAttributeNames: { '#count': 'count' },
        ExpressionAttributeValues: { ':n': 1 },
      },
    });
    await timed(5, () => transactWrite(counting, [{ Put: { TableName, Item: item, ConditionExpression: 'attribute_not_exists(PK)' } }, usage('DAY', day), usage('MONTH', day.slice(0, 7))]));
    await timed(6, () => clients.sqs.send(new SendMessageCommand({ QueueUrl: sinkUrl, MessageBody: JSON.stringify({ email_id: item.id }) })));
  });

  const contextRead = (n: number) =>
    doc.send(
      new BatchGetCommand({
        RequestItems: {
          [TableName]: {
            Keys: [keys.apiKeyHash(keyHash), keys.account(accountId), keys.domainName(context.domainName), keys.suppression(accountId, context.recipient(n), null)],
            ConsistentRead: true,
          },
        },
      }),
    );
  const fresh = run(FLOOR_STEPS.new, async (timed, counting, n) => {
    await timed(0, () => contextRead(n));
    const item = emailItem(n, true);
    await timed(1, () =>
      transactWrite(counting, [
        { Put: { TableName, Item: item, ConditionExpression: 'attribute_not_exists(PK)' } },
        ...(CONDITION_CHECK ? [{ ConditionCheck: { TableName, Key: keys.apiKeyHash(keyHash), ConditionExpression: 'attribute_exists(PK)' } }] : []),
      ]),
    );
  });
  const freshPut = run(FLOOR_STEPS['new-put'], async (timed, _counting, n) => {
    await timed(0, () => contextRead(n));
    const item = emailItem(n, true);
    await timed(1, () => doc.send(new PutCommand({ TableName, Item: item, ConditionExpression: 'attribute_not_exists(PK)' })));
  });

  return {
    old,
    new: fresh,
    'new-put': freshPut,
    close: async () => {
      await clients.sqs.send(new DeleteQueueCommand({ QueueUrl: sinkUrl })).catch(() => undefined);
      clients.sqs.destroy();
      (doc as unknown as { destroy(): void }).destroy();
    },
  };
}

// --- The report.

const rateOf = (phase: Measured | undefined) => (phase ? (phase.result.latencies.length / phase.result.elapsedMs) * 1000 : NaN);
const ORIGIN_ORDER = ['product', 'event-source', 'emulator', 'local-cloud', 'bench', 'bench-control', 'test', 'unknown'];
const ORIGIN_TEXT: Record<string, string> = {
  product: 'product (the service\'s own SDK calls)',
  'event-source': 'event-source (the Lambda service\'s pollers: SQS receive/delete, stream reads; AWS-side on AWS)',
  emulator: 'emulator (calls an emulator makes on AWS\'s behalf, e.g. SES -> SNS Publish; not ours on AWS)',
  'local-cloud': 'local-cloud (provisioning, health checks)',
};

function report(results: TargetResult[], loadBefore: number[], loadAfter: number[], seconds: number): string {
  const out: string[] = [];
  const print = (line = '') => out.push(line);
  const all = results.flatMap((result) => result.phases);
  const several = results.length > 1;
  const phaseName = (phase: Measured) => `${several ? `${phase.target}: ` : ''}${phase.name} c=${phase.result.concurrency}`;
  const current = results[0]!;

  print(`# bench:send ${new Date().toISOString()}`);
  print();
  print(`Machine: ${cpus().length} cores (${cpus()[0]?.model ?? '?'}), Node ${process.version}; load average before ${loadBefore.map((l) => l.toFixed(2)).join(' ')}, after ${loadAfter.map((l) => l.toFixed(2)).join(' ')}; run took ${seconds.toFixed(0)} s.`);
  print(`Checkouts: ${results.map((result) => `${result.label} (${result.commit})`).join(', ')}. Stack: embedded local cloud with DATA_IN_MEMORY=1 (DynamoDB Local -inMemory); fauxqs, SES/DNS/Scheduler emulators and the API gateway in the stack's main thread (the API thread), pollers and worker Lambdas in its workers thread; the load generator and the floors' SDK clients in this process.`);
  print(`Sends: plan 'dedicated' + payment method, verified domain (DNS emulator); POST /emails {from: bench@<domain>, to: success+<n>@simulator.amazonses.com, ${TEMPLATE ? "template: {id: 'bench', variables: {n}}} (a published product template: managed unsubscribe)" : 'subject, text}'}.`);
  print(`Phases: closed loop, ${DURATION_MS / 1000} s each after a ${WARMUP_MS / 1000} s warm-up at c=8; the pipeline is drained (worker queues empty) after every phase.`);
  print(`Modes: ${[COUNT_CALLS && '--count-calls', CPU_PROF && '--cpu-prof', AWS_LATENCY && '--aws-latency', BASELINE && `--baseline ${BASELINE}`].filter(Boolean).join(' ') || 'none'}.`);
  print();
  if (AWS_LATENCY) {
    print('AWS latency model (--aws-latency): every product and event-source SDK call of the stacks and every floor call is delayed by a log-normal sample (p50, p99 below, capped at 4 x p99) before it is sent; emulator-internal calls are not. Sources: docs/benchmarks.md.');
    print();
    print(table(['operation', 'p50 ms', 'p99 ms', 'source'], Object.entries(LATENCY).map(([name, entry]) => [name, String(entry.p50), String(entry.p99), entry.source])));
    print();
  }
  for (const [floor, steps] of Object.entries(current.floorSteps)) {
    print(`Floor '${floor}', per request, sequential, with the product's SDK clients (shared/aws/clients.ts), no HTTP API:`);
    steps!.forEach((step, i) => print(`  ${i + 1}. ${step}`));
  }
  if (Object.keys(current.floorSteps).length) {
    print('  (floor emails are copies of an item the API wrote; the outbox relay enqueues them; the old floor\'s SendMessage goes to a scratch queue)');
    print();
  }

  print('Throughput and latency as seen by the client (ms):');
  print();
  print(
    table(
      ['phase', 'requests', 'req/s', 'p50', 'p95', 'p99', 'max', 'errors'],
      all.map((phase) => {
        const s = summarise(phase.result.latencies);
        return [phaseName(phase), String(s.count), rateOf(phase).toFixed(0), ms(s.p50), ms(s.p95), ms(s.p99), ms(s.max), String(phase.result.errors)];
      }),
    ),
  );
  print();
  const withErrors = all.filter((phase) => phase.result.errors > 0);
  if (withErrors.length) {
    print('Errors by outcome:');
    for (const phase of withErrors) print(`  ${phaseName(phase)}: ${Object.entries(phase.result.outcomes).map(([label, count]) => `${label} x${count}`).join(', ')}`);
    print();
  }

  // In-stack latency of POST /emails: the gateway's Server-Timing when present, else the client's loopback figure.
  const apiPhases = all.filter((phase) => phase.name === 'API');
  print(`In-stack latency of POST /emails (ms)${AWS_LATENCY ? ', with AWS latencies' : ' (emulator latencies, not AWS: run with --aws-latency for the goal)'}:`);
  print();
  print(
    table(
      ['phase', 'source', 'n', 'p50', 'p95', 'p99', ...(AWS_LATENCY ? [`p50 <= ${GOAL.p50}`, `p99 <= ${GOAL.p99}`] : [])],
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
          ...(AWS_LATENCY ? [s.p50 <= GOAL.p50 ? 'PASS' : 'MISS', s.p99 <= GOAL.p99 ? 'PASS' : 'MISS'] : []),
        ];
      }),
    ),
  );
  print("(Server-Timing: the local API gateway's `handler;dur=` header, the time from the request reaching the gateway to its answer; loopback: the client's time, which adds the bench's own HTTP and queueing on the 2 shared cores.)");
  print();

  const ratios = CONCURRENCIES.map((c) => {
    const find = (target: string, name: string) => all.find((phase) => phase.target === target && phase.name === name && phase.result.concurrency === c);
    const cells = [String(c)];
    for (const result of results) cells.push(rateOf(find(result.label, 'API')).toFixed(0));
    for (const floor of FLOORS) cells.push(rateOf(find(current.label, `floor ${floor}`)).toFixed(0));
    for (const result of results) for (const floor of FLOORS) cells.push((rateOf(find(result.label, 'API')) / rateOf(find(current.label, `floor ${floor}`))).toFixed(2));
    return cells;
  });
  if (FLOORS.length) {
    print('API / floor (req/s; floors measured against the current stack):');
    print();
    print(
      table(
        ['c', ...results.map((result) => `${result.label} API`), ...FLOORS.map((floor) => `floor ${floor}`), ...results.flatMap((result) => FLOORS.map((floor) => `${result.label} / ${floor}`))],
        ratios,
      ),
    );
    print();
  }

  printCpu(print, all, results, phaseName);

  const floorPhases = all.filter((phase) => phase.steps);
  if (floorPhases.length) {
    print('Floors, mean ms per step (as seen by the client, queueing in the SDK and the emulator included):');
    print();
    for (const floor of FLOORS) {
      const these = floorPhases.filter((phase) => phase.floor === floor);
      if (!these.length) continue;
      print(
        table(
          [`floor ${floor}: step`, ...these.map((phase) => `c=${phase.result.concurrency}`)],
          [
            ...these[0]!.steps!.map((step, i) => [step.name, ...these.map((phase) => ms(phase.steps![i]!.meanMs, 2))]),
            ['TransactWriteItems attempts per send', ...these.map((phase) => phase.transactAttemptsPerSend!.toFixed(2))],
          ],
        ),
      );
      print();
    }
  }

  if (COUNT_CALLS) printCalls(print, all, phaseName);
  if (AWS_LATENCY) {
    const injected: Record<string, { count: number; total: number }> = {};
    for (const phase of all) for (const [op, { count, meanMs }] of Object.entries(phase.injected ?? {})) {
      const entry = (injected[op] ??= { count: 0, total: 0 });
      entry.count += count;
      entry.total += count * meanMs;
    }
    print('Latency injected into the stacks (all measured phases and their drains; the floors\' calls are delayed the same way in this process):');
    print();
    print(table(['operation', 'calls delayed', 'mean ms', 'model p50 / p99'], Object.entries(injected).sort((a, b) => b[1].count - a[1].count).map(([op, { count, total }]) => [op, String(count), (total / count).toFixed(1), LATENCY[op] ? `${LATENCY[op]!.p50} / ${LATENCY[op]!.p99}` : '-'])));
    print();
  }
  if (OBSERVE) printHot(print, all, phaseName);

  for (const result of results) {
    const acc = summarise(result.accepted);
    const del = summarise(result.delivered);
    print(`Accept-to-delivered, ${result.label} (${DELIVERED_SENDS} sequential sends on an idle pipeline, GET /emails/{id} every ${POLL_MS} ms; includes the SES emulator's 20 ms outcome delay):`);
    print(`  POST /emails -> 200:        p50 ${ms(acc.p50)} ms, p95 ${ms(acc.p95)} ms, max ${ms(acc.max)} ms`);
    print(`  POST /emails -> delivered:  p50 ${ms(del.p50)} ms, p95 ${ms(del.p95)} ms, max ${ms(del.max)} ms${result.undelivered ? ` (${result.undelivered} not delivered within 30 s)` : ''}`);
  }
  print();

  print('Targets:');
  for (const result of results) {
    for (const c of CONCURRENCIES) {
      const api = all.find((phase) => phase.target === result.label && phase.name === 'API' && phase.result.concurrency === c);
      for (const floor of FLOORS) {
        const floorPhase = all.find((phase) => phase.target === current.label && phase.name === `floor ${floor}` && phase.result.concurrency === c);
        const ratio = rateOf(api) / rateOf(floorPhase);
        print(`  ${result.label}: API >= 0.5 x floor ${floor} at c=${c}: ${ratio.toFixed(2)} -> ${ratio >= 0.5 ? 'MET' : 'MISSED'}`);
      }
    }
    const target = all.find((phase) => phase.target === result.label && phase.name === 'API' && phase.result.concurrency === TARGET_CONCURRENCY);
    if (target) {
      const p99 = summarise(target.result.latencies).p99;
      print(`  ${result.label}: p99 < 100 ms at c=${TARGET_CONCURRENCY} (client side): ${ms(p99)} ms -> ${p99 < 100 ? 'MET' : 'MISSED'}`);
    }
    if (COUNT_CALLS) {
      for (const phase of all.filter((p) => p.target === result.label && p.name === 'API')) {
        const perEmail = productCallsPerEmail(phase);
        print(`  ${result.label}: product SDK calls per delivered email <= ${PRODUCT_CALLS_GOAL} at c=${phase.result.concurrency}: ${perEmail.toFixed(2)} -> ${perEmail <= PRODUCT_CALLS_GOAL ? 'PASS' : 'MISS'}`);
      }
    }
  }
  print();
  for (const result of results) {
    print(`Memory of the stack's process tree (${result.label}; Node + DynamoDB Local), RSS: ${result.idleRss.toFixed(0)} MB after start-up, ${result.busyRss.toFixed(0)} MB after the run.`);
    const dlqTotal = Object.values(result.dlqDepths).reduce((a, b) => a + b, 0);
    print(`Dead-letter queues after the run (${result.label}): ${dlqTotal === 0 ? 'empty' : JSON.stringify(result.dlqDepths)}.`);
  }
  print(`Drains: every phase's backlog was delivered before the next phase (worker queues: ${current.queueNames.join(', ')}).`);

  if (CPU_PROF) printProfiles(print, all, phaseName);
  return out.join('\n');
}

function printCpu(print: (line?: string) => void, all: Measured[], results: TargetResult[], phaseName: (phase: Measured) => string) {
  const threadLabels = [...new Set(results.flatMap((result) => result.threadLabels))];
  const row = (phase: Measured, split: CpuSplit, per: number) => {
    const cell = (seconds: number) => (Number.isFinite(seconds) ? ((seconds * 1000) / (per || 1)).toFixed(2) : '-');
    const stack = split.roles['stack Node'];
    const named = threadLabels.map((label) => split.threads[label] ?? NaN);
    const others = stack - named.filter(Number.isFinite).reduce((a, b) => a + b, 0);
    const threadCells = threadLabels.length ? [...named.map(cell), cell(others)] : [];
    return [phaseName(phase), String(per), cell(stack), ...threadCells, cell(split.roles['DynamoDB Local (Java)']), cell(split.bench), cell(split.roles['tsx launcher'] + split.roles.other)];
  };
  const header = (what: string) => [
    'phase',
    what,
    'stack Node (all threads)',
    ...(threadLabels.length ? [...threadLabels.map((label) => `of which ${label}`), 'of which other threads (GC, libuv, V8)'] : []),
    'DynamoDB Local (Java)',
    'bench process',
    'tsx launcher + bash',
  ];
  print('CPU ms per accepted email during the phase (processes from /proc; threads from /proc/<pid>/task/<tid> when a preload reported their ids):');
  print();
  print(table(header('accepted'), all.map((phase) => row(phase, phase.cpu, phase.result.ok))));
  print();
  print('CPU ms per delivered email, from the phase\'s start until its backlog was delivered (the whole pipeline: every email of the phase is delivered by then):');
  print();
  print(table(header('delivered'), all.map((phase) => row(phase, phase.cpuWithDrain, phase.result.ok))));
  print();
  print('Share of the 2 cores during the phase (CPU seconds / wall second):');
  print();
  print(
    table(
      ['phase', 'wall s', 'stack Node', 'DynamoDB Local', 'bench', 'total', 'backlog at end', 'drain s'],
      all.map((phase) => {
        const wall = phase.result.elapsedMs / 1000;
        const stack = phase.cpu.roles['stack Node'];
        const java = phase.cpu.roles['DynamoDB Local (Java)'];
        return [phaseName(phase), wall.toFixed(1), (stack / wall).toFixed(2), (java / wall).toFixed(2), (phase.cpu.bench / wall).toFixed(2), ((stack + java + phase.cpu.bench) / wall).toFixed(2), String(phase.backlog), (phase.drainMs / 1000).toFixed(1)];
      }),
    ),
  );
  print();
}

function printCalls(print: (line?: string) => void, all: Measured[], phaseName: (phase: Measured) => string) {
  const per = (calls: Record<string, number> | undefined, key: string, n: number) => ((calls?.[key] ?? 0) / (n || 1)).toFixed(2);
  const opName = (key: string) => {
    const { service, operation } = splitCall(key);
    return `${service} ${operation}`;
  };

  // Request path: the API thread's product calls (API phases), the bench's floor calls (floor phases).
  const requestOf = (phase: Measured): Record<string, number> => {
    const source = phase.floor ? (phase.benchCalls ?? {}) : (phase.requestCalls ?? {});
    const origin = phase.floor ? 'bench' : 'product';
    const out: Record<string, number> = {};
    for (const [key, count] of Object.entries(source)) if (splitCall(key).origin === origin) out[opName(key)] = (out[opName(key)] ?? 0) + count;
    return out;
  };
  const requests = all.map(requestOf);
  const requestOps = [...new Set(requests.flatMap((calls) => Object.keys(calls)))].sort();
  print('SDK calls on the request path, per accepted email (API phases: product calls made by the stack\'s API thread while the phase ran; floor phases: the floor\'s calls, from this process):');
  print();
  print(
    table(
      ['operation', ...all.map(phaseName)],
      [
        ...requestOps.map((op) => [op, ...all.map((phase, i) => per(requests[i], op, phase.result.ok))]),
        ['total', ...all.map((phase, i) => (Object.values(requests[i]!).reduce((a, b) => a + b, 0) / (phase.result.ok || 1)).toFixed(2))],
      ],
    ),
  );
  print();

  // Whole pipeline: every thread of the stack, by origin, phase start to drained.
  const keys = [...new Set(all.flatMap((phase) => Object.keys(phase.pipelineCalls ?? {})))].filter((key) => !['bench', 'bench-control'].includes(splitCall(key).origin));
  keys.sort((a, b) => {
    const ka = splitCall(a);
    const kb = splitCall(b);
    return ORIGIN_ORDER.indexOf(ka.origin) - ORIGIN_ORDER.indexOf(kb.origin) || opName(a).localeCompare(opName(b));
  });
  print('SDK calls of the whole stack per delivered email (every thread of every Node process of the stack, from the phase\'s start until drained; event-source counts include the pollers\' empty receives, which grow with time, not with emails):');
  print();
  const origins = ORIGIN_ORDER.filter((origin) => keys.some((key) => splitCall(key).origin === origin));
  const rows: string[][] = [];
  for (const origin of origins) {
    const these = keys.filter((key) => splitCall(key).origin === origin);
    for (const key of these) rows.push([origin, opName(key), ...all.map((phase) => per(phase.pipelineCalls, key, phase.result.ok))]);
    rows.push([origin, 'subtotal', ...all.map((phase) => (these.reduce((sum, key) => sum + (phase.pipelineCalls?.[key] ?? 0), 0) / (phase.result.ok || 1)).toFixed(2))]);
  }
  const productAndSources = keys.filter((key) => ['product', 'event-source'].includes(splitCall(key).origin));
  rows.push(['product + event-source', 'total (what AWS would bill as our requests)', ...all.map((phase) => (productAndSources.reduce((sum, key) => sum + (phase.pipelineCalls?.[key] ?? 0), 0) / (phase.result.ok || 1)).toFixed(2))]);
  rows.push(['all', 'total', ...all.map((phase) => (keys.reduce((sum, key) => sum + (phase.pipelineCalls?.[key] ?? 0), 0) / (phase.result.ok || 1)).toFixed(2))]);
  print(table(['origin', 'operation', ...all.map(phaseName)], rows));
  print('(In floor phases the floor\'s own calls come from this process and are not in this table: what remains is the pipeline behind the API.)');
  for (const origin of origins) if (ORIGIN_TEXT[origin]) print(`  ${ORIGIN_TEXT[origin]}`);
  print();

  // Beside the calls: how many of them were conditional writes refused (a lost race or a duplicate).
  const failureKeys = [...new Set(all.flatMap((phase) => Object.keys(phase.pipelineFailures ?? {})))].filter((key) => !['bench', 'bench-control'].includes(splitCall(key).origin));
  failureKeys.sort((a, b) => ORIGIN_ORDER.indexOf(splitCall(a).origin) - ORIGIN_ORDER.indexOf(splitCall(b).origin) || opName(a).localeCompare(opName(b)));
  print('Failed conditional writes per delivered email, beside the calls of that operation (failed / calls; ConditionalCheckFailedException, or TransactionCanceledException with a ConditionalCheckFailed reason, one per transaction; same threads and window as above):');
  print();
  if (failureKeys.length) {
    const failureRows = failureKeys.map((key) => [
      splitCall(key).origin,
      opName(key),
      ...all.map((phase) => `${per(phase.pipelineFailures, key, phase.result.ok)} / ${per(phase.pipelineCalls, key, phase.result.ok)}`),
    ]);
    failureRows.push(['all', 'total failed', ...all.map((phase) => (Object.entries(phase.pipelineFailures ?? {}).filter(([key]) => failureKeys.includes(key)).reduce((sum, [, count]) => sum + count, 0) / (phase.result.ok || 1)).toFixed(2))]);
    print(table(['origin', 'operation', ...all.map(phaseName)], failureRows));
  } else {
    print('  none in any phase.');
  }
  print();
  print(`Product SDK calls per delivered email (goal <= ${PRODUCT_CALLS_GOAL}):`);
  for (const phase of all.filter((p) => p.name === 'API')) {
    const perEmail = productCallsPerEmail(phase);
    print(`  ${phaseName(phase)}: ${perEmail.toFixed(2)} -> ${perEmail <= PRODUCT_CALLS_GOAL ? 'PASS' : 'MISS'}`);
  }
  print();
}

function printHot(print: (line?: string) => void, all: Measured[], phaseName: (phase: Measured) => string) {
  const busiest = all.filter((phase) => phase.result.concurrency === MAX_CONCURRENCY && phase.hot);
  if (!busiest.length) return;
  print(`Hot items: DynamoDB item writes (PutItem, UpdateItem, DeleteItem, TransactWriteItems Put/Update/Delete, BatchWriteItem) by item key, in the c=${MAX_CONCURRENCY} phases (the highest rates), over the phase's full seconds:`);
  print();
  for (const phase of busiest) {
    const hot = phase.hot!;
    const first = hot.top[0];
    print(
      `${phaseName(phase)}: ${hot.writesPerSecond.toFixed(0)} item writes/s (busiest second ${hot.maxWritesPerSecond}); most-written item: ${first ? `${first.key} (${first.shape}), ${first.perSecond.toFixed(1)} writes/s, at most ${first.maxPerSecond} in one second` : 'none'}`,
    );
    if (hot.top.length) print(table(['item key', 'kind', 'writes/s', 'max in 1 s'], hot.top.map((item) => [item.key.length > 90 ? `${item.key.slice(0, 87)}...` : item.key, item.shape, item.perSecond.toFixed(1), String(item.maxPerSecond)])));
    print();
  }
}

function printProfiles(print: (line?: string) => void, all: Measured[], phaseName: (phase: Measured) => string) {
  for (const phase of all) {
    if (!phase.profiles?.length) continue;
    const n = phase.result.ok || 1;
    print();
    print(
      `CPU profile, ${phaseName(phase)}, per thread. Busy = sampled time not idle: wall time in JavaScript, native code or GC, which includes waiting for a core when the machine is oversubscribed; the CPU column is the thread's CPU time from /proc for the same window:`,
    );
    const threads = phase.profiles.filter(({ summary }) => summary.totalMs > 0);
    print(
      table(
        ['thread', 'busy ms', 'busy % of the window', 'busy ms/email', 'CPU ms/email (/proc)'],
        threads.map(({ label, summary }) => {
          const busy = summary.totalMs - summary.idleMs;
          const cpu = phase.cpu.threads[label];
          return [label, busy.toFixed(0), ((100 * busy) / (summary.totalMs || 1)).toFixed(0), (busy / n).toFixed(2), cpu !== undefined && Number.isFinite(cpu) ? ((cpu * 1000) / n).toFixed(2) : '-'];
        }),
      ),
    );
    for (const { label, summary } of threads) {
      const busy = summary.totalMs - summary.idleMs;
      if (busy < 0.05 * summary.totalMs && busy < 200) continue;
      const buckets = new Map<string, number>();
      for (const component of summary.components) buckets.set(bucketOf(component.name), (buckets.get(bucketOf(component.name)) ?? 0) + component.ms);
      buckets.delete('(idle)');
      print(`  ${label}, by kind of work:`);
      for (const [bucket, time] of [...buckets].sort((a, b) => b[1] - a[1]).slice(0, 10)) print(`  ${((100 * time) / busy).toFixed(1).padStart(5)}%  ${bucket}`);
      if (phase.name !== 'API') continue;
      print(`  ${label}, by component:`);
      for (const component of summary.components.filter((c) => c.name !== '(idle)').slice(0, 10)) print(`  ${((100 * component.ms) / busy).toFixed(1).padStart(5)}%  ${component.name}`);
      print(`  ${label}, hottest functions:`);
      for (const fn of summary.functions.filter((f) => !f.name.startsWith('(idle)')).slice(0, 10)) print(`  ${((100 * fn.ms) / busy).toFixed(1).padStart(5)}%  ${fn.name}`);
    }
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
