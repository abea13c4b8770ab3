/**
 * Sending throughput: `POST /emails` against the embedded local cloud (in memory) at concurrency 1 and 32
 * for a fixed duration, next to "the floor": the same DynamoDB reads/writes and SQS send that one
 * accepted email costs, issued directly with the AWS SDK (no HTTP API, no Hono, no use case) against
 * the same emulators in the same run. Prints figures and whether the targets are met; asserts nothing.
 *
 *   npm run bench:send [-- --duration 10 --warmup 10 --concurrency 1,32 --delivered 50 --cpu-prof --count-calls]
 *
 * --cpu-prof: sample the stack's Node process and summarise each phase (where its time goes);
 * --count-calls: count the stack's outgoing AWS SDK requests per operation per accepted email.
 *
 * Method (see docs/benchmarks.md, "Sending throughput"):
 *  - one stack (`spawnStack`, DATA_IN_MEMORY=1: DynamoDB Local -inMemory, as the measured emulator floors);
 *  - an account on the `dedicated` plan (no daily/monthly cap) with a payment method, and a domain added
 *    through the API, its records published in the DNS emulator and verified, so sends are production
 *    sends (no sandbox caps) from bench@<domain> to success+<n>@simulator.amazonses.com;
 *  - a warm-up of --warmup seconds of API and of floor at c=8 (DynamoDB Local's JVM needs thousands of
 *    requests to reach its speed);
 *  - closed-loop phases (each worker sends, waits for the answer, sends again) of --duration seconds:
 *    API c=1, floor c=1, API c=32, floor c=32; after each, the pipeline (every worker queue) is drained
 *    before the next phase starts, so no phase inherits another's backlog;
 *  - the floor writes real email items and enqueues them on the real send queue: the workers deliver
 *    them exactly as they deliver the API's, so both sides carry the same background work;
 *  - accept-to-delivered in its own phase: sequential sends, each polled with GET /emails/{id} every
 *    5 ms until `delivered`.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { BatchGetCommand, GetCommand } from '@aws-sdk/lib-dynamodb';
import { GetQueueAttributesCommand, GetQueueUrlCommand, SendMessageCommand } from '@aws-sdk/client-sqs';
import { spawnStack, type SpawnedStack } from '../test/integration/harness/spawn-stack';
import { readStackFile } from '../localstack/cloud/stack-file';
import { QUEUES } from '../infra/definitions';
import { cpuSecondsByCommand, descendants, diffCpu, rssMb } from './lib/process-tree';
import { closedLoop, HttpClient, type Outcome, type PhaseResult } from './lib/load';
import { ms, summarise, table } from './lib/stats';
import { bucketOf, summariseCpuProfile } from './lib/cpu-profile';

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '10' },
    concurrency: { type: 'string', default: '1,32' },
    delivered: { type: 'string', default: '50' },
    'cpu-prof': { type: 'boolean', default: false },
    'count-calls': { type: 'boolean', default: false },
  },
});
const DURATION_MS = Number(values.duration) * 1000;
const WARMUP_MS = Number(values.warmup) * 1000;
const CONCURRENCIES = values.concurrency!.split(',').map(Number);
const DELIVERED_SENDS = Number(values.delivered);
const CPU_PROF = values['cpu-prof']!;
const COUNT_CALLS = values['count-calls']!;
const TARGET_CONCURRENCY = 32;
const POLL_MS = 5;

const log = (message: string) => console.error(`[bench:send] ${message}`);
const hrtimeMicros = () => Number(process.hrtime.bigint() / 1000n);
const sleep = (msec: number) => new Promise((resolve) => setTimeout(resolve, msec));

interface Measured {
  name: 'API' | 'floor';
  /** --count-calls: the stack's outgoing requests by operation, from the phase's start to the end of its drain. */
  calls?: Record<string, number>;
  /** Floor only: mean ms per step, and TransactWriteItems attempts per send. */
  steps?: { name: string; meanMs: number }[];
  transactAttemptsPerSend?: number;
  result: PhaseResult;
  cpu: { stackNode: number; dynamodb: number; bench: number };
  /** CPU of the stack (Node, Java) from the phase's start to the end of its drain: the whole cost of the phase's emails. */
  cpuWithDrain: { stackNode: number; dynamodb: number };
  backlog: number;
  drainMs: number;
  window: { from: number; to: number };
}

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'mailservice-bench-send-'));
  const profDir = join(dataDir, 'cpu-prof');
  const countDir = join(dataDir, 'call-counts');
  const loadBefore = loadavg();
  log(`starting an in-memory local cloud in ${dataDir}${CPU_PROF ? ' (with --cpu-prof)' : ''}${COUNT_CALLS ? ' (with --count-calls)' : ''}`);
  // Node 20 refuses --cpu-prof in NODE_OPTIONS: a preloaded module runs the profiler through the inspector.
  const preloads = [...(CPU_PROF ? ['cpu-profile-preload.cjs'] : []), ...(COUNT_CALLS ? ['count-calls-preload.cjs'] : [])];
  const stack = await spawnStack({
    dataDir,
    inMemory: true,
    env: preloads.length
      ? {
          NODE_OPTIONS: [process.env.NODE_OPTIONS ?? '', ...preloads.map((file) => `--require ${join(__dirname, 'lib', file)}`)].join(' ').trim(),
          CPU_PROFILE_DIR: profDir,
          CALL_COUNT_DIR: countDir,
        }
      : {},
  }).catch((error: unknown) => {
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  });
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await stack.stop('SIGINT');
  };
  try {
    await run(stack, dataDir, profDir, countDir, loadBefore, stop);
  } finally {
    await stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The stack's outgoing requests so far, by operation (summed over its Node processes). */
function readCallCounts(countDir: string): Record<string, number> {
  const totals: Record<string, number> = {};
  let files: string[] = [];
  try {
    files = readdirSync(countDir).filter((file) => file.endsWith('.json'));
  } catch {
    return totals;
  }
  for (const file of files) {
    try {
      for (const [name, count] of Object.entries(JSON.parse(readFileSync(join(countDir, file), 'utf8')) as Record<string, number>)) totals[name] = (totals[name] ?? 0) + count;
    } catch {
      // being rewritten: the next read has it
    }
  }
  return totals;
}

async function run(stack: SpawnedStack, dataDir: string, profDir: string, countDir: string, loadBefore: number[], stop: () => Promise<void>) {
  const info = readStackFile(dataDir)!;
  Object.assign(process.env, info.env);
  // Product modules read the environment when loaded: import them after it is set.
  const { buildServices } = await import('../shared/services');
  const { loadConfig } = await import('../shared/config');
  const { createAwsClients } = await import('../shared/aws/clients');
  const { createAccount } = await import('../shared/usecases/accounts');
  const { hashSecret } = await import('../shared/domain/api-keys/secret');
  const { keys } = await import('../shared/store/keys');
  const { transactWrite } = await import('../shared/store/table');
  const { reserveItem } = await import('../shared/store/usage');
  const { usageReservations } = await import('../shared/domain/accounts/limits');
  const { EVENT_RANK } = await import('../shared/domain/emails/outcomes');
  const { newId } = await import('../shared/domain/ids');

  const config = loadConfig(process.env);
  const services = buildServices(config);
  const pids = descendants(stack.child.pid!);

  // --- Fixtures: a dedicated-plan account with a payment method and a verified domain.
  const suffix = Math.random().toString(36).slice(2, 8);
  const { account, secret } = await createAccount(services, { email: `bench-${suffix}@example.com`, plan: 'dedicated', paymentMethod: true, tenants: false });
  const headers = { authorization: `Bearer ${secret}`, 'content-type': 'application/json' };
  const setup = new HttpClient(stack.apiUrl, 4);
  const call = async (method: string, path: string, body?: unknown) => {
    const response = await setup.request(method, path, headers, body === undefined ? undefined : JSON.stringify(body));
    if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${response.text}`);
    return JSON.parse(response.text);
  };
  const domainName = `bench-${suffix}.example-mail.test`;
  const { domain } = (await call('POST', '/domains', { name: domainName })) as {
    domain: { id: string; records: { type: string; name: string; value: string; priority?: number }[] };
  };
  for (const record of domain.records) {
    await call('PUT', '/_local/dns/records', { name: record.name, type: record.type, values: [record.type === 'MX' ? `${record.priority ?? 10} ${record.value}` : record.value] });
  }
  const verified = (await call('POST', `/domains/${domain.id}`, { action: 'verify' })) as { domain: { status: string } };
  if (verified.domain.status !== 'verified') throw new Error(`domain ${domainName} did not verify: ${JSON.stringify(verified)}`);
  const from = `bench@${domainName}`;
  const idleRss = rssMb(pids);

  // --- The two operations under test.
  let sequence = 0;
  const recipient = (n: number) => `success+${n}@simulator.amazonses.com`;

  const apiSend = async (client: HttpClient, n: number): Promise<Outcome & { id?: string }> => {
    const response = await client.request('POST', '/emails', headers, JSON.stringify({ from, to: recipient(n), subject: `bench ${n}`, text: 'hello' }));
    if (response.status === 200) return { ok: true, label: '200', id: (JSON.parse(response.text) as { id: string }).id };
    let code = '';
    try {
      code = (JSON.parse(response.text) as { error?: { code?: string } }).error?.code ?? '';
    } catch {
      // not JSON
    }
    return { ok: false, label: `${response.status}${code ? ` ${code}` : ''}` };
  };

  // The floor uses the product's own client factory (same SDK options: keep-alive, timeouts, retries).
  const floorClients = createAwsClients(config);
  const tableRef = { client: floorClients.dynamo, name: config.tableName };
  const TableName = config.tableName;
  const keyHash = hashSecret(secret);
  // Per-step time (summed over the phase) and TransactWriteItems attempts (retries on TransactionConflict).
  const FLOOR_STEPS = ['GetItem key', 'GetItem account', 'GetItem domain claim', 'GetItem domain', 'BatchGetItem suppressions', 'TransactWriteItems', 'SQS SendMessage'] as const;
  let stepMs: number[] = FLOOR_STEPS.map(() => 0);
  let transactAttempts = 0;
  const countingTable = {
    name: TableName,
    client: { send: (command: unknown) => (transactAttempts++, floorClients.dynamo.send(command as never)) } as unknown as typeof floorClients.dynamo,
  };
  const timed = async <T>(step: number, work: () => Promise<T>): Promise<T> => {
    const t0 = performance.now();
    try {
      return await work();
    } finally {
      stepMs[step]! += performance.now() - t0;
    }
  };
  const floorSend = async (n: number): Promise<Outcome> => {
    const doc = floorClients.dynamo;
    // 1-2. authentication (shared/usecases/authenticate.ts): the key by its hash, then its account.
    const key = await timed(0, () => doc.send(new GetCommand({ TableName, Key: keys.apiKeyHash(keyHash), ConsistentRead: true })));
    const owner = await timed(1, () => doc.send(new GetCommand({ TableName, Key: keys.account(key.Item!.account_id as string), ConsistentRead: true })));
    const accountId = owner.Item!.id as string;
    // 3-4. the sender (DomainRepository.findOwned): the name claim, then the domain.
    const claim = await timed(2, () => doc.send(new GetCommand({ TableName, Key: keys.domainName(domainName), ConsistentRead: true })));
    await timed(3, () => doc.send(new GetCommand({ TableName, Key: keys.domain(claim.Item!.domain_id as string), ConsistentRead: true })));
    // 5. suppressions (SuppressionRepository.findSuppressed): strongly consistent BatchGetItem, projection `email`.
    const to = recipient(n);
    await timed(4, () =>
      doc.send(
        new BatchGetCommand({
          RequestItems: { [TableName]: { Keys: [keys.suppression(accountId, to, null)], ConsistentRead: true, ProjectionExpression: '#p0', ExpressionAttributeNames: { '#p0': 'email' } } },
        }),
      ),
    );
    // 6. the email item and the usage counters in one transaction (EmailRepository.create + UsageLedger.reserve).
    const now = new Date();
    const id = newId('msg', now.getTime());
    const reservations = usageReservations('dedicated', false, now).map((reservation) => reserveItem(tableRef, accountId, reservation, 1));
    await timed(5, () => transactWrite(countingTable, [
      {
        Put: {
          TableName,
          Item: {
            ...keys.email(id),
            GSI1PK: keys.emailsByAccount(accountId),
            GSI1SK: id,
            type: 'email',
            id,
            account_id: accountId,
            from,
            to: [to],
            cc: [],
            bcc: [],
            reply_to: [],
            subject: `bench ${n}`,
            status: 'queued',
            last_event: 'queued',
            tags: [],
            headers: {},
            created_at: now.toISOString(),
            // What the service keeps beside the public record (EmailInternals): the usage reserved.
            usage_reserved: { entries: [{ scope: 'PLAN', period: 'DAY', periodValue: now.toISOString().slice(0, 10) }, { scope: 'PLAN', period: 'MONTH', periodValue: now.toISOString().slice(0, 7) }], count: 1 },
            last_event_rank: EVENT_RANK.queued,
            body: { text: 'hello' },
          },
          ConditionExpression: 'attribute_not_exists(PK)',
        },
      },
      ...reservations,
    ]));
    // 7. the hand-off (SqsSendQueue.enqueue).
    await timed(6, () => floorClients.sqs.send(new SendMessageCommand({ QueueUrl: config.sendQueueUrl, MessageBody: JSON.stringify({ email_id: id }) })));
    return { ok: true, label: 'ok' };
  };

  // --- Pipeline drain between phases: every worker queue (send, SES events, and whatever else
  // infra/definitions.ts declares) empty (nothing visible, in flight or delayed) for 5 checks in a row,
  // 100 ms apart (covers the SES emulator's 20 ms outcome delay).
  const workerQueues = Object.values(QUEUES)
    .map((queue) => info.env[queue.envVar])
    .filter((url): url is string => Boolean(url));
  const queueDepth = async (url: string) => {
    const { Attributes = {} } = await floorClients.sqs.send(
      new GetQueueAttributesCommand({
        QueueUrl: url,
        AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible', 'ApproximateNumberOfMessagesDelayed'],
      }),
    );
    return Number(Attributes.ApproximateNumberOfMessages ?? 0) + Number(Attributes.ApproximateNumberOfMessagesNotVisible ?? 0) + Number(Attributes.ApproximateNumberOfMessagesDelayed ?? 0);
  };
  const pipelineDepth = async () => (await Promise.all(workerQueues.map(queueDepth))).reduce((a, b) => a + b, 0);
  const drain = async (): Promise<number> => {
    const started = performance.now();
    let quiet = 0;
    while (quiet < 5) {
      if (performance.now() - started > 300_000) {
        log('pipeline did not drain within 300 s; continuing');
        break;
      }
      quiet = (await pipelineDepth()) === 0 ? quiet + 1 : 0;
      await sleep(100);
    }
    return performance.now() - started;
  };

  const measure = async (name: 'API' | 'floor', concurrency: number, durationMs: number): Promise<Measured> => {
    const client = new HttpClient(stack.apiUrl, concurrency);
    const operation = name === 'API' ? (n: number) => apiSend(client, n) : floorSend;
    stepMs = FLOOR_STEPS.map(() => 0);
    transactAttempts = 0;
    if (COUNT_CALLS) await sleep(300);
    const callsBefore = COUNT_CALLS ? readCallCounts(countDir) : {};
    const cpuBefore = cpuSecondsByCommand(pids);
    const benchBefore = process.cpuUsage();
    const windowFrom = hrtimeMicros();
    const result = await closedLoop(concurrency, durationMs, () => operation(sequence++));
    const windowTo = hrtimeMicros();
    const bench = process.cpuUsage(benchBefore);
    const cpu = diffCpu(cpuSecondsByCommand(pids), cpuBefore);
    client.close();
    const sends = result.latencies.length || 1;
    const steps = name === 'floor' ? FLOOR_STEPS.map((step, i) => ({ name: step, meanMs: stepMs[i]! / sends })) : undefined;
    const transactAttemptsPerSend = name === 'floor' ? transactAttempts / sends : undefined;
    const backlog = await pipelineDepth();
    const drainMs = await drain();
    const cpuWithDrain = diffCpu(cpuSecondsByCommand(pids), cpuBefore);
    let calls: Record<string, number> | undefined;
    if (COUNT_CALLS) {
      await sleep(300);
      const after = readCallCounts(countDir);
      calls = Object.fromEntries(Object.entries(after).map(([op, count]) => [op, count - (callsBefore[op] ?? 0)]).filter(([, count]) => (count as number) > 0));
    }
    return {
      name,
      calls,
      result,
      steps,
      transactAttemptsPerSend,
      cpu: { stackNode: cpu.node ?? 0, dynamodb: cpu.java ?? 0, bench: (bench.user + bench.system) / 1e6 },
      cpuWithDrain: { stackNode: cpuWithDrain.node ?? 0, dynamodb: cpuWithDrain.java ?? 0 },
      backlog,
      drainMs,
      window: { from: windowFrom, to: windowTo },
    };
  };

  // --- Warm-up (JIT, connection pools, DynamoDB Local's JVM), then the measured phases.
  log(`warm-up: ${WARMUP_MS / 1000} s API and ${WARMUP_MS / 1000} s floor at concurrency 8`);
  const warmApi = await measure('API', 8, WARMUP_MS);
  const warmFloor = await measure('floor', 8, WARMUP_MS);
  if (warmApi.result.errors || warmFloor.result.errors) log(`warm-up errors: API ${JSON.stringify(warmApi.result.outcomes)}, floor ${JSON.stringify(warmFloor.result.outcomes)}`);

  const phases: Measured[] = [];
  for (const concurrency of CONCURRENCIES) {
    for (const name of ['API', 'floor'] as const) {
      log(`${name} at concurrency ${concurrency} for ${DURATION_MS / 1000} s`);
      const phase = await measure(name, concurrency, DURATION_MS);
      log(`  ${phase.result.latencies.length} requests, ${phase.result.errors} errors; backlog ${phase.backlog} drained in ${(phase.drainMs / 1000).toFixed(1)} s`);
      phases.push(phase);
    }
  }

  // --- Accept-to-delivered, its own phase: one send at a time, polled every 5 ms.
  log(`accept-to-delivered: ${DELIVERED_SENDS} sequential sends, polled every ${POLL_MS} ms`);
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

  const dlqDepths: Record<string, number> = {};
  for (const queue of Object.values(QUEUES)) {
    const { QueueUrl } = await floorClients.sqs.send(new GetQueueUrlCommand({ QueueName: queue.dlqName }));
    dlqDepths[queue.dlqName] = await queueDepth(QueueUrl!);
  }
  const busyRss = rssMb(pids);
  const loadAfter = loadavg();

  // --- Report.
  const out: string[] = [];
  const print = (line = '') => out.push(line);
  print(`# bench:send ${new Date().toISOString()}`);
  print();
  print(`Machine: ${cpus().length} cores (${cpus()[0]?.model ?? '?'}), Node ${process.version}; load average before ${loadBefore.map((l) => l.toFixed(2)).join(' ')}, after ${loadAfter.map((l) => l.toFixed(2)).join(' ')}.`);
  print(`Stack: embedded local cloud with DATA_IN_MEMORY=1 (DynamoDB Local -inMemory, as the emulator floors in the research notes); fauxqs, SES/DNS emulators, API gateway and SQS pollers in one Node process; the load generator and the floor's SDK clients in this process.`);
  print(`Sends: plan 'dedicated' + payment method, verified domain ${domainName} (DNS emulator); POST /emails {from: ${from}, to: success+<n>@simulator.amazonses.com, subject, text}.`);
  print(`Phases: closed loop, ${DURATION_MS / 1000} s each after a ${WARMUP_MS / 1000} s warm-up (API and floor, c=8); the pipeline is drained (both worker queues empty) after every phase.`);
  print();
  print('The floor, per request (mirrors shared/http/middleware/authenticate.ts -> shared/usecases/authenticate.ts and shared/usecases/send-email.ts), issued sequentially with the product\'s SDK clients (shared/aws/clients.ts), no HTTP API:');
  print('  1. DynamoDB GetItem APIKEYHASH#<sha256> (consistent)              authentication: the key');
  print('  2. DynamoDB GetItem ACCOUNT#<acc> (consistent)                      authentication: the account');
  print('  3. DynamoDB GetItem DOMAINNAME#<name> (consistent)                  the sender: the domain-name claim');
  print('  4. DynamoDB GetItem DOMAIN#<dom> (consistent)                       the sender: the domain');
  print('  5. DynamoDB BatchGetItem SUPPRESSION#<acc>#<to> (consistent, projection email)   suppressions');
  print('  6. DynamoDB TransactWriteItems: Put EMAIL#<msg> (attribute_not_exists) + Update USAGE#PLAN#DAY + Update USAGE#PLAN#MONTH (ADD, no limit on dedicated)');
  print('  7. SQS SendMessage {email_id} to the send queue (the workers then deliver these emails like the API\'s)');
  print();

  const row = (phase: Measured): string[] => {
    const s = summarise(phase.result.latencies);
    const rate = (phase.result.latencies.length / phase.result.elapsedMs) * 1000;
    return [phase.name, String(phase.result.concurrency), String(s.count), rate.toFixed(0), ms(s.p50), ms(s.p95), ms(s.p99), ms(s.max), String(phase.result.errors)];
  };
  print('Throughput and latency (ms):');
  print();
  print(table(['phase', 'concurrency', 'requests', 'req/s', 'p50', 'p95', 'p99', 'max', 'errors'], phases.map(row)));
  print();
  const withErrors = phases.filter((phase) => phase.result.errors > 0);
  if (withErrors.length) {
    print('Errors by outcome:');
    for (const phase of withErrors) print(`  ${phase.name} c=${phase.result.concurrency}: ${Object.entries(phase.result.outcomes).map(([label, count]) => `${label} x${count}`).join(', ')}`);
    print();
  }

  print('CPU during each phase (seconds of CPU, and ms of CPU per request; 2 cores = 2 s of CPU per wall second):');
  print();
  print(
    table(
      ['phase', 'concurrency', 'wall s', 'stack Node', 'DynamoDB Local (Java)', 'bench process', 'total CPU / wall', 'backlog at end', 'drain s', 'stack Node + Java incl. drain'],
      phases.map((phase) => {
        const n = phase.result.latencies.length || 1;
        const wall = phase.result.elapsedMs / 1000;
        const cell = (seconds: number) => `${seconds.toFixed(1)} s (${((seconds * 1000) / n).toFixed(2)} ms/req)`;
        const total = phase.cpu.stackNode + phase.cpu.dynamodb + phase.cpu.bench;
        const perEmail = (seconds: number) => ((seconds * 1000) / (phase.result.ok || 1)).toFixed(1);
        return [
          phase.name,
          String(phase.result.concurrency),
          wall.toFixed(1),
          cell(phase.cpu.stackNode),
          cell(phase.cpu.dynamodb),
          cell(phase.cpu.bench),
          (total / wall).toFixed(2),
          String(phase.backlog),
          (phase.drainMs / 1000).toFixed(1),
          `${perEmail(phase.cpuWithDrain.stackNode)} + ${perEmail(phase.cpuWithDrain.dynamodb)} ms/email`,
        ];
      }),
    ),
  );
  print('(The stack\'s Node CPU includes the workers delivering the accepted emails in the background, in both API and floor phases; the backlog left at the');
  print(' end is delivered during the drain, whose CPU only the last column counts: the whole cost of an accepted email in the stack, its delivery included.)');
  print();

  const floorPhases = phases.filter((phase) => phase.steps);
  if (floorPhases.length) {
    print('Floor, mean ms per step (as seen by the client, queueing in the SDK and the emulator included):');
    print();
    print(
      table(
        ['step', ...floorPhases.map((phase) => `c=${phase.result.concurrency}`)],
        [
          ...FLOOR_STEPS.map((step, i) => [step, ...floorPhases.map((phase) => ms(phase.steps![i]!.meanMs, 2))]),
          ['TransactWriteItems attempts per send', ...floorPhases.map((phase) => phase.transactAttemptsPerSend!.toFixed(2))],
        ],
      ),
    );
    print();
  }

  if (COUNT_CALLS) {
    const counted = phases.filter((phase) => phase.calls);
    const ops = [...new Set(counted.flatMap((phase) => Object.keys(phase.calls!)))].sort();
    const perEmail = (phase: Measured, op: string) => (phase.calls![op] ?? 0) / (phase.result.ok || 1);
    print("The stack's outgoing requests (AWS SDK calls to the emulators) per accepted email, from the phase's start to the end of its drain (pollers' empty receives included):");
    print();
    print(
      table(
        ['operation', ...counted.map((phase) => `${phase.name} c=${phase.result.concurrency}`)],
        [
          ...ops.map((op) => [op, ...counted.map((phase) => perEmail(phase, op).toFixed(2))]),
          ['total', ...counted.map((phase) => ops.reduce((sum, op) => sum + perEmail(phase, op), 0).toFixed(2))],
        ],
      ),
    );
    print("(In floor phases the floor's own 7 calls per send come from this process and are not counted here: what remains is the pipeline behind the API.)");
    print();
  }

  const rateOf = (name: 'API' | 'floor', concurrency: number) => {
    const phase = phases.find((p) => p.name === name && p.result.concurrency === concurrency);
    return phase ? (phase.result.latencies.length / phase.result.elapsedMs) * 1000 : NaN;
  };
  print('API / floor:');
  print();
  print(
    table(
      ['concurrency', 'API req/s', 'floor req/s', 'ratio'],
      CONCURRENCIES.map((c) => [String(c), rateOf('API', c).toFixed(0), rateOf('floor', c).toFixed(0), (rateOf('API', c) / rateOf('floor', c)).toFixed(2)]),
    ),
  );
  print();

  const acc = summarise(accepted);
  const del = summarise(delivered);
  print(`Accept-to-delivered (${DELIVERED_SENDS} sequential sends on an idle pipeline, GET /emails/{id} every ${POLL_MS} ms; includes the SES emulator's 20 ms outcome delay):`);
  print(`  POST /emails -> 200:        p50 ${ms(acc.p50)} ms, p95 ${ms(acc.p95)} ms, max ${ms(acc.max)} ms`);
  print(`  POST /emails -> delivered:  p50 ${ms(del.p50)} ms, p95 ${ms(del.p95)} ms, max ${ms(del.max)} ms${undelivered ? ` (${undelivered} not delivered within 30 s)` : ''}`);
  print();

  const target = phases.find((p) => p.name === 'API' && p.result.concurrency === TARGET_CONCURRENCY);
  print('Targets:');
  for (const c of CONCURRENCIES) {
    const ratio = rateOf('API', c) / rateOf('floor', c);
    print(`  API >= 0.5 x floor at c=${c}: ${ratio.toFixed(2)} -> ${ratio >= 0.5 ? 'MET' : 'MISSED'}`);
  }
  if (target) {
    const p99 = summarise(target.result.latencies).p99;
    print(`  p99 < 100 ms at c=${TARGET_CONCURRENCY}: ${ms(p99)} ms -> ${p99 < 100 ? 'MET' : 'MISSED'}`);
    const floorTarget = phases.find((p) => p.name === 'floor' && p.result.concurrency === TARGET_CONCURRENCY);
    if (floorTarget) {
      const floorRate = (floorTarget.result.latencies.length / floorTarget.result.elapsedMs) * 1000;
      print(
        `  (for comparison, the floor's own p99 at c=${TARGET_CONCURRENCY}: ${ms(summarise(floorTarget.result.latencies).p99)} ms. In a closed loop mean latency = concurrency / throughput,` +
          ` so p99 < 100 ms at c=${TARGET_CONCURRENCY} needs well over ${(TARGET_CONCURRENCY / 0.1).toFixed(0)} sends/s; the floor did ${floorRate.toFixed(0)}/s.)`,
      );
    }
  } else print(`  p99 < 100 ms at c=${TARGET_CONCURRENCY}: not measured (run with --concurrency including ${TARGET_CONCURRENCY})`);
  print();
  print(`Memory of the stack's process tree (Node + DynamoDB Local), RSS: ${idleRss.toFixed(0)} MB after start-up, ${busyRss.toFixed(0)} MB after the run.`);
  const dlqTotal = Object.values(dlqDepths).reduce((a, b) => a + b, 0);
  print(`Dead-letter queues after the run: ${dlqTotal === 0 ? 'empty' : JSON.stringify(dlqDepths)}.`);
  print(`Drains: every phase's backlog was delivered before the next phase (worker queues: ${Object.values(QUEUES).map((queue) => queue.name).join(', ')}).`);

  if (CPU_PROF) {
    await stop();
    const profiles = readdirSync(profDir)
      .filter((file) => file.endsWith('.cpuprofile'))
      .map((file) => join(profDir, file))
      .sort((a, b) => statSync(b).size - statSync(a).size);
    if (profiles[0]) {
      for (const phase of phases) {
        const summary = summariseCpuProfile(profiles[0], phase.window);
        const busy = summary.totalMs - summary.idleMs;
        print();
        print(`CPU profile of the stack's Node process during ${phase.name} c=${phase.result.concurrency} (self time; busy ${busy.toFixed(0)} ms of ${summary.totalMs.toFixed(0)} ms sampled = ${((100 * busy) / summary.totalMs).toFixed(0)}% of one core):`);
        const buckets = new Map<string, number>();
        for (const component of summary.components) buckets.set(bucketOf(component.name), (buckets.get(bucketOf(component.name)) ?? 0) + component.ms);
        buckets.delete('(idle)');
        print('  by kind of work:');
        for (const [bucket, time] of [...buckets].sort((a, b) => b[1] - a[1])) print(`  ${((100 * time) / busy).toFixed(1).padStart(5)}%  ${bucket}`);
        print('  by component:');
        for (const component of summary.components.filter((c) => c.name !== '(idle)').slice(0, 14)) {
          print(`  ${((100 * component.ms) / busy).toFixed(1).padStart(5)}%  ${component.name}`);
        }
        print('  hottest functions:');
        for (const fn of summary.functions.filter((f) => !f.name.startsWith('(idle)')).slice(0, 12)) print(`  ${((100 * fn.ms) / busy).toFixed(1).padStart(5)}%  ${fn.name}`);
      }
    } else print('No CPU profile was written by the stack.');
  }

  console.log(out.join('\n'));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
