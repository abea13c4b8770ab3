/**
 * Automations (issue 14): `POST /events` accepted per second, and the time from an event to its run's
 * email `delivered`, for 1 run at a time and for --runs runs (10,000 by default), each next to a floor
 * measured in the same run: plain `POST /emails` with the same content, the same way. Prints figures;
 * asserts nothing (a lost run is printed as `LOST: n`, not an exit code).
 *
 *   npm run bench:automations [-- --runs 10000 --single 20 --concurrency 32 --warmup 10 --progress 5
 *                                 --timeout 1800 --local-bounds --cost --count-calls --cpu-prof]
 *
 * --cost, --count-calls, --cpu-prof (lib/stack-observer.ts): over each bulk phase (first request to
 * drained), the dollars per million delivered emails by service, the SDK calls per delivered email of every
 * thread of the stack, and the busiest threads' profiles, for the plain sends and for the automation runs.
 *
 * Method (see docs/benchmarks.md, "Automations"):
 *  - one in-memory local cloud (`spawnStack`, DATA_IN_MEMORY=1), as bench:send; the reconciler at AWS's
 *    cadence (once a minute) and, unless --local-bounds, with AWS's recovery bounds (a step or email
 *    waiting 10 minutes in a queue is stuck, not 30 s as locally), so a backlog of minutes is worked off
 *    by the pipeline instead of being re-driven by the reconciler, as on AWS;
 *  - an account on the `dedicated` plan (no caps) with a payment method and a domain verified through the
 *    DNS emulator; one automation, created then activated: trigger `bench.signup`, one `send_email` step
 *    from bench@<domain> to `{{event.email}}`, subject `bench {{event.user_id}}`, text. Events name a new
 *    user each (`u-<n>`, `success+<n>@simulator.amazonses.com`); the floor sends the same email with
 *    `POST /emails` (same from, to, subject and text);
 *  - warm-up: --warmup seconds at c=8, events and plain sends alternating, then every warm-up run and
 *    email settled and the worker queues drained;
 *  - 1 run: --single times, alternating, one event (then its run polled with
 *    `GET /automations/{id}/runs/{run_id}` every 5 ms until its step has an email id, then that email with
 *    `GET /emails/{id}` until `delivered`) and one plain send (polled with `GET /emails/{id}`). The run id
 *    is not in the 202: it derives from (automation, event id, event time), which the 202 carries;
 *  - --runs runs: first the floor, --runs plain sends at --concurrency (closed loop: each worker sends,
 *    waits for the answer, sends again), tracked until every email is delivered, the queues drained; then
 *    --runs events at the same concurrency, tracked until every run is completed and its email delivered.
 *    Tracking reads the store every 2 s (consistent BatchGetItem of the run and email items still open,
 *    oldest first, stopping at a chunk of which fewer than half became final: the bench's own reads
 *    stay near the items that moved); progress is printed every --progress seconds. A watcher polls the
 *    first request's run and email every 10 ms (first event to first delivered, client clock). The others
 *    are from the items' own timestamps (event `created_at`, run `ended_at`, email `created_at` and
 *    `delivered_at`; same host clock as the bench's `Date.now()`);
 *  - at the end of each phase, a count of the store's runs and emails in the phase's id window (GSI1 and GSI4,
 *    ids are time-ordered) by status: runs completed == events accepted, emails delivered == runs,
 *    nothing more (duplicates) and nothing less (lost).
 */
import { jsonCaller, verifiedDomain } from './lib/fixtures';
import { cpus, loadavg } from 'node:os';
import { execFileSync } from 'node:child_process';
import { parseArgs } from 'node:util';
import { BatchGetCommand, GetCommand, QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { GetQueueAttributesCommand, GetQueueUrlCommand, SQSClient } from '@aws-sdk/client-sqs';
import { cpuSecondsByRole, descendants, rssMb, type ProcessRole } from './lib/process-tree';
import { closedLoop, countedLoop, HttpClient, serverTimingMs, type Outcome, type PhaseResult } from './lib/load';
import { ms, percentile, table } from './lib/stats';
import { batchGetItems } from '#shared/adapters/store/batch-get';
import { loadProduct as load, ROOT, withInMemoryStack } from './lib/bench-stack';
import { StackObserver } from './lib/stack-observer';
import type { Cost } from './lib/cost/price-usage';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '10000' },
    single: { type: 'string', default: '20' },
    concurrency: { type: 'string', default: '32' },
    warmup: { type: 'string', default: '10' },
    progress: { type: 'string', default: '5' },
    timeout: { type: 'string', default: '1800' },
    'local-bounds': { type: 'boolean', default: false },
    cost: { type: 'boolean', default: false },
    'count-calls': { type: 'boolean', default: false },
    'cpu-prof': { type: 'boolean', default: false },
  },
});
const RUNS = Number(values.runs);
const SINGLE = Number(values.single);
const CONCURRENCY = Number(values.concurrency);
const WARMUP_MS = Number(values.warmup) * 1000;
const PROGRESS_MS = Number(values.progress) * 1000;
/** How long a phase may take to settle after its last request, before its open items are reported. */
const TIMEOUT_MS = Number(values.timeout) * 1000;
const LOCAL_BOUNDS = values['local-bounds']!;
for (const [name, value] of Object.entries({
  runs: RUNS,
  single: SINGLE,
  concurrency: CONCURRENCY,
  warmup: WARMUP_MS,
  progress: PROGRESS_MS,
  timeout: TIMEOUT_MS,
})) {
  if (!Number.isFinite(value) || value < 0) throw new Error(`--${name} must be a number >= 0`);
}
const TRIGGER = 'bench.signup';
const POLL_MS = 5;
const WATCH_MS = 10;
const TRACK_MS = 2000;
const CHUNK = 100;
const FIRST_CHUNK = 25;
const FINAL_EMAIL = new Set(['delivered', 'bounced', 'failed', 'cancelled']);
const FINAL_RUN = new Set(['completed', 'failed', 'cancelled']);

const log = (message: string) => console.error(`[bench:automations] ${message}`);
const sleep = (msec: number) => new Promise((resolveSleep) => setTimeout(resolveSleep, msec));
const epoch = (iso: unknown): number | undefined =>
  typeof iso === 'string' && !Number.isNaN(Date.parse(iso)) ? Date.parse(iso) : undefined;

/** One request of a phase and what became of it. Times are epoch ms (the host clock, stack and bench alike). */
interface Tracked {
  n: number;
  firedAt: number;
  /** Server time of the event / email (its `created_at`). */
  createdAt?: number;
  runId?: string;
  runStatus?: string;
  runEndedAt?: number;
  runError?: string;
  emailId?: string;
  emailStatus?: string;
  deliveredAt?: number;
}

/**
 * Follows runs and emails in the store until each is final: consistent BatchGetItem of the open ones in id
 * order (ids are time-ordered, and the pipeline works roughly oldest first), in chunks of 25, 50, then
 * 100, stopping after a chunk in which fewer than half became final, unless `full` (the last pass, which
 * reads every open item): the bench's reads stay near what moved, plus 25 of each kind per pass.
 */
class Tracker {
  readonly items: Tracked[] = [];
  reads = 0;

  private readonly table: { client: DynamoDBDocumentClient; name: string };

  constructor(db: DynamoDBDocumentClient, tableName: string) {
    this.table = { client: db, name: tableName };
  }

  add(item: Tracked) {
    this.items.push(item);
  }

  private openRuns = () =>
    this.items.filter((item) => item.runId && !FINAL_RUN.has(item.runStatus ?? '')).sort((a, b) => (a.runId! < b.runId! ? -1 : 1));
  private openEmails = () =>
    this.items
      .filter((item) => item.emailId && !FINAL_EMAIL.has(item.emailStatus ?? ''))
      .sort((a, b) => (a.emailId! < b.emailId! ? -1 : 1));

  /**
   * One pass over `open` (oldest id first): consistent BatchGetItem in chunks of 25, 50, then 100, each
   * item read handed to `settle` (true: it became final); stops after a chunk in which fewer than half
   * became final, unless `full`.
   */
  private async pass(
    open: Tracked[],
    idOf: (item: Tracked) => string,
    pk: string,
    projection: string[],
    settle: (item: Tracked, read: Record<string, any>) => boolean,
    full: boolean,
  ): Promise<void> {
    for (let i = 0, size = FIRST_CHUNK; i < open.length; i += size, size = Math.min(CHUNK, size * 2)) {
      const chunk = open.slice(i, i + size);
      const byId = new Map(chunk.map((item) => [idOf(item), item]));
      this.reads += chunk.length;
      const got = await batchGetItems(
        this.table,
        [...byId.keys()].map((id) => ({ PK: `${pk}#${id}`, SK: pk })),
        { consistentRead: true, projection },
      );
      let moved = 0;
      for (const read of got) {
        const item = byId.get(read.id as string);
        if (item && settle(item, read)) moved++;
      }
      if (!full && moved * 2 < chunk.length) break;
    }
  }

  /** One pass over the open runs, then the open emails. */
  async poll(full = false): Promise<void> {
    await this.pass(
      this.openRuns(),
      (item) => item.runId!,
      'RUN',
      ['id', 'status', 'ended_at', 'history', 'error'],
      (item, run) => {
        if (!FINAL_RUN.has(run.status as string)) return false;
        item.runStatus = run.status as string;
        item.runEndedAt = epoch(run.ended_at);
        item.runError = (run.error as string | null) ?? undefined;
        const sent = ((run.history as { type: string; output?: { email_id?: string } | null }[] | undefined) ?? []).find(
          (step) => step.type === 'send_email',
        );
        if (sent?.output?.email_id) item.emailId = sent.output.email_id;
        return true;
      },
      full,
    );
    await this.pass(
      this.openEmails(),
      (item) => item.emailId!,
      'EMAIL',
      ['id', 'status', 'created_at', 'delivered_at'],
      (item, email) => {
        if (!FINAL_EMAIL.has(email.status as string)) return false;
        item.emailStatus = email.status as string;
        item.deliveredAt = epoch(email.delivered_at);
        if (!item.runId) item.createdAt ??= epoch(email.created_at);
        return true;
      },
      full,
    );
  }

  counts() {
    const runsFinal = this.items.filter((item) => item.runId && FINAL_RUN.has(item.runStatus ?? '')).length;
    const runsCompleted = this.items.filter((item) => item.runStatus === 'completed').length;
    const delivered = this.items.filter((item) => item.emailStatus === 'delivered').length;
    const emailsFinal = this.items.filter((item) => FINAL_EMAIL.has(item.emailStatus ?? '')).length;
    const settled = this.items.filter((item) =>
      item.runId
        ? FINAL_RUN.has(item.runStatus ?? '') && (!item.emailId || FINAL_EMAIL.has(item.emailStatus ?? ''))
        : FINAL_EMAIL.has(item.emailStatus ?? ''),
    ).length;
    return { runsFinal, runsCompleted, delivered, emailsFinal, settled };
  }
}

/**
 * Store counts by status of the items of one index partition whose sort key (a time-ordered id) is in [from, to]:
 * GSI1 (the runs, ALL: the status is in the index), or GSI4 (the account's emails, keys only: each page's items
 * read from the table).
 */
async function countByStatus(
  db: DynamoDBDocumentClient,
  tableName: string,
  index: 'GSI1' | 'GSI4',
  partition: string,
  prefix: string,
  fromMs: number,
  toMs: number,
  ulid: (t: number) => string,
): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  const count = (items: Record<string, any>[]) => {
    for (const item of items) counts[item.status as string] = (counts[item.status as string] ?? 0) + 1;
  };
  let start: Record<string, any> | undefined;
  do {
    const page = await db.send(
      new QueryCommand({
        TableName: tableName,
        IndexName: index,
        KeyConditionExpression: `${index}PK = :pk AND ${index}SK BETWEEN :lo AND :hi`,
        ExpressionAttributeValues: {
          ':pk': partition,
          ':lo': `${prefix}_${ulid(fromMs).slice(0, 10)}`,
          ':hi': `${prefix}_${ulid(toMs).slice(0, 10)}~`,
        },
        ...(index === 'GSI1' ? { ExpressionAttributeNames: { '#status': 'status' }, ProjectionExpression: '#status' } : {}),
        ExclusiveStartKey: start,
        // A BatchGetItem takes at most 100 keys.
        Limit: 100,
      }),
    );
    const items = page.Items ?? [];
    if (index === 'GSI1' || items.length === 0) count(items);
    else {
      let keys: Record<string, any>[] = items.map((item) => ({ PK: item.PK, SK: item.SK }));
      while (keys.length) {
        const got = await db.send(
          new BatchGetCommand({
            RequestItems: {
              [tableName]: { Keys: keys, ProjectionExpression: '#status', ExpressionAttributeNames: { '#status': 'status' } },
            },
          }),
        );
        count(got.Responses?.[tableName] ?? []);
        keys = (got.UnprocessedKeys?.[tableName]?.Keys as Record<string, any>[] | undefined) ?? [];
      }
    }
    start = page.LastEvaluatedKey;
  } while (start);
  return counts;
}

interface SinglePhase {
  eventAccepted: number[];
  eventRunDone: number[];
  eventDelivered: number[];
  floorAccepted: number[];
  floorDelivered: number[];
  failures: string[];
}

interface BulkPhase {
  kind: 'events' | 'floor';
  /** --cost: first request to drained, priced per million delivered emails. */
  cost?: Cost;
  result: PhaseResult;
  items: Tracked[];
  origin: number;
  lastAnswerAt: number;
  firstDeliveredClientMs?: number;
  firstRunDoneClientMs?: number;
  settledClientMs?: number;
  timedOut: boolean;
  /** From the first request until every worker queue was empty (after settling). */
  drainedClientMs: number;
  /** Largest depth of each worker queue seen by the progress samples. */
  peaks: Record<string, number>;
  cpu: Record<ProcessRole, number>;
  benchCpu: number;
  trackerReads: number;
  storeRuns?: Record<string, number>;
  storeEmails: Record<string, number>;
}

async function main() {
  const started = Date.now();
  const loadBefore = loadavg();
  const commit = execFileSync('git', ['-C', ROOT, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
  const dirty = execFileSync('git', ['-C', ROOT, 'status', '--porcelain', '--untracked-files=no'], { encoding: 'utf8' }).trim() !== '';
  const { QUEUES } = load('infra/definitions');
  const { DEFAULT_RECOVERY_BOUNDS, RECOVERY_ENV } = load('shared/domain/reliability/bounds');
  const awsBounds: Record<string, string> = LOCAL_BOUNDS
    ? {}
    : Object.fromEntries(
        Object.entries(RECOVERY_ENV as Record<string, string>).map(([bound, variable]) => [
          variable,
          String(Math.round((DEFAULT_RECOVERY_BOUNDS as Record<string, number>)[bound]! / 1000)),
        ]),
      );
  log(`starting an in-memory local cloud (${LOCAL_BOUNDS ? 'local' : "AWS's"} recovery bounds, reconciler once a minute)`);
  const flags = { cost: values.cost!, countCalls: values['count-calls']!, cpuProf: values['cpu-prof']! };
  const observing = flags.cost || flags.countCalls || flags.cpuProf;
  const costDir = observing ? mkdtempSync(join(tmpdir(), 'bench-automations-observe-')) : undefined;
  const observer = costDir ? new StackObserver(flags, costDir) : undefined;
  await withInMemoryStack(
    'automations',
    { env: { LOCAL_TASK_PERIOD_MS: '60000', ...awsBounds, ...observer?.stackEnv() } },
    async ({ stack, info }) => {
      // Product modules read the environment when loaded: load them once it is set.
      const { buildServices } = load('shared/services');
      const { EMAIL_INDEX_SHARDS } = load('shared/adapters/store/email-index-shard');
      const { loadConfig } = load('shared/config/config');
      const { createAwsClients } = load('shared/adapters/aws/clients');
      const { createAccount } = load('shared/usecases/access/accounts');
      const { runIdFor } = load('shared/domain/automations/run');
      const { ulid } = load('shared/domain/ids');
      const config = loadConfig(process.env);
      const services = buildServices(config);
      const db: DynamoDBDocumentClient = createAwsClients(config).dynamo;
      const tableName: string = config.tableName;
      const control = new SQSClient({ region: config.region, endpoint: info.env.AWS_ENDPOINT_URL_SQS });
      const pids = descendants(stack.child.pid!);

      // --- Fixtures: a dedicated-plan account with a payment method, a verified domain, an active automation.
      const suffix = Math.random().toString(36).slice(2, 8);
      const { account, secret } = await createAccount(services, {
        email: `bench-${suffix}@example.com`,
        plan: 'dedicated',
        paymentMethod: true,
        tenants: false,
      });
      const headers = { authorization: `Bearer ${secret}`, 'content-type': 'application/json' };
      const setup = new HttpClient(stack.apiUrl, 4);
      const call = jsonCaller(setup, headers);
      const domainName = `bench-${suffix}.example-mail.test`;
      await verifiedDomain(call, domainName);
      const from = `bench@${domainName}`;
      const created = (await call('POST', '/automations', {
        name: 'Bench signup',
        trigger: { event: TRIGGER },
        steps: [{ key: 'welcome', type: 'send_email', from, to: ['{{event.email}}'], subject: 'bench {{event.user_id}}', text: 'hello' }],
      })) as { automation: { id: string } };
      const automationId = created.automation.id;
      const activated = (await call('POST', `/automations/${automationId}`, { action: 'activate' })) as { automation: { status: string } };
      if (activated.automation.status !== 'active')
        throw new Error(`automation ${automationId} did not activate: ${JSON.stringify(activated)}`);
      const idleRss = rssMb(pids);

      let sequence = 0;
      const recipient = (n: number) => `success+${n}@simulator.amazonses.com`;
      const eventBody = (n: number) => JSON.stringify({ name: TRIGGER, user_id: `u-${n}`, email: recipient(n) });
      const emailBody = (n: number) => JSON.stringify({ from, to: recipient(n), subject: `bench u-${n}`, text: 'hello' });
      const errorLabel = (status: number, text: string) => {
        let code = '';
        try {
          code = (JSON.parse(text) as { error?: { code?: string } }).error?.code ?? '';
        } catch {
          // not JSON
        }
        return `${status}${code ? ` ${code}` : ''}`;
      };
      /** POST /events for user n; the run id from the 202 (automation, event id, event time). */
      const postEvent = async (client: HttpClient, n: number, tracker?: Tracker): Promise<Outcome & { item?: Tracked }> => {
        const firedAt = Date.now();
        const response = await client.request('POST', '/events', headers, eventBody(n));
        const serverMs = serverTimingMs(response.headers);
        if (response.status !== 202) return { ok: false, label: errorLabel(response.status, response.text), serverMs };
        const body = JSON.parse(response.text) as { event: { id: string; created_at: string }; matched_automations: number };
        if (body.matched_automations !== 1) return { ok: false, label: `202 matched ${body.matched_automations}`, serverMs };
        const item: Tracked = {
          n,
          firedAt,
          createdAt: Date.parse(body.event.created_at),
          runId: runIdFor(automationId, body.event.id, Date.parse(body.event.created_at)),
        };
        tracker?.add(item);
        return { ok: true, label: '202', serverMs, item };
      };
      const postEmail = async (client: HttpClient, n: number, tracker?: Tracker): Promise<Outcome & { item?: Tracked }> => {
        const firedAt = Date.now();
        const response = await client.request('POST', '/emails', headers, emailBody(n));
        const serverMs = serverTimingMs(response.headers);
        if (response.status !== 200) return { ok: false, label: errorLabel(response.status, response.text), serverMs };
        const item: Tracked = { n, firedAt, emailId: (JSON.parse(response.text) as { id: string }).id };
        tracker?.add(item);
        return { ok: true, label: '200', serverMs, item };
      };

      // --- Queues: the pipeline is drained when every worker queue is empty for 5 checks, 100 ms apart.
      const queueUrls: { name: string; url: string }[] = (Object.values(QUEUES) as { name: string; envVar: string }[])
        .map((queue) => ({ name: queue.name, url: info.env[queue.envVar] as string }))
        .filter((queue) => Boolean(queue.url));
      const queueDepth = async (url: string) => {
        const { Attributes = {} } = await control.send(
          new GetQueueAttributesCommand({
            QueueUrl: url,
            AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible', 'ApproximateNumberOfMessagesDelayed'],
          }),
        );
        return (
          Number(Attributes.ApproximateNumberOfMessages ?? 0) +
          Number(Attributes.ApproximateNumberOfMessagesNotVisible ?? 0) +
          Number(Attributes.ApproximateNumberOfMessagesDelayed ?? 0)
        );
      };
      const depths = async () =>
        Object.fromEntries(
          await Promise.all(
            queueUrls.map(async (queue) => [queue.name.replace(/^mailservice-/, ''), await queueDepth(queue.url)] as const),
          ),
        );
      const drain = async (limitMs = 300_000): Promise<number> => {
        const startedAt = performance.now();
        let quiet = 0;
        while (quiet < 5) {
          if (performance.now() - startedAt > limitMs) {
            log(`pipeline did not drain within ${limitMs / 1000} s; continuing`);
            break;
          }
          const all = await depths();
          quiet = Object.values(all).every((depth) => depth === 0) ? quiet + 1 : 0;
          await sleep(100);
        }
        return performance.now() - startedAt;
      };

      /** Polls the tracker until every item is settled (or the timeout after `firingDone`); prints progress. */
      const settle = async (
        label: string,
        tracker: Tracker,
        firing: Promise<unknown> | null,
        requests: number,
        peaks: Record<string, number> = {},
      ): Promise<{ settledAt?: number; timedOut: boolean }> => {
        const t0 = Date.now();
        let lastProgress = t0;
        let firingDoneAt: number | null = firing ? null : Date.now();
        void firing?.then(() => (firingDoneAt = Date.now()));
        for (;;) {
          await tracker.poll();
          const counts = tracker.counts();
          const now = Date.now();
          if (firingDoneAt !== null && counts.settled >= tracker.items.length) return { settledAt: now, timedOut: false };
          if (PROGRESS_MS && now - lastProgress >= PROGRESS_MS) {
            lastProgress = now;
            const queues = await depths();
            for (const [name, depth] of Object.entries(queues)) peaks[name] = Math.max(peaks[name] ?? 0, depth);
            const backlog =
              Object.entries(queues)
                .filter(([, depth]) => depth > 0)
                .map(([name, depth]) => `${name} ${depth}`)
                .join(', ') || 'empty';
            log(
              `${label}: ${((now - t0) / 1000).toFixed(0)} s: ${tracker.items.length}${requests ? `/${requests}` : ''} accepted, ${counts.runsFinal ? `${counts.runsCompleted} runs completed, ` : ''}${counts.delivered} emails delivered; queues: ${backlog}`,
            );
          }
          if (firingDoneAt !== null && now - firingDoneAt > TIMEOUT_MS) {
            log(`${label}: not settled ${TIMEOUT_MS / 1000} s after the last request; reporting what is open`);
            return { timedOut: true };
          }
          await sleep(TRACK_MS);
        }
      };

      // --- Warm-up: events and plain sends alternating at c=8, then everything settled and drained.
      if (WARMUP_MS > 0) {
        log(`warm-up: ${WARMUP_MS / 1000} s of events and plain sends alternating at concurrency 8`);
        const warm = new Tracker(db, tableName);
        const client = new HttpClient(stack.apiUrl, 8);
        await closedLoop(8, WARMUP_MS, (i) => (i % 2 ? postEmail(client, sequence++, warm) : postEvent(client, sequence++, warm)));
        client.close();
        const settled = await settle('warm-up', warm, null, 0);
        log(
          `warm-up: ${warm.items.length} accepted, ${warm.counts().settled} settled${settled.timedOut ? ' (timed out)' : ''}; drained in ${((await drain()) / 1000).toFixed(1)} s`,
        );
      }

      // --- 1 run at a time, alternating with the floor (one plain send), each polled every 5 ms.
      const single: SinglePhase = {
        eventAccepted: [],
        eventRunDone: [],
        eventDelivered: [],
        floorAccepted: [],
        floorDelivered: [],
        failures: [],
      };
      if (SINGLE > 0) {
        log(`1 run: ${SINGLE} events and ${SINGLE} plain sends, alternating, each polled every ${POLL_MS} ms until delivered`);
        const client = new HttpClient(stack.apiUrl, 2);
        const getJson = async (path: string) => {
          const response = await client.request('GET', path, headers);
          return response.status === 200 ? JSON.parse(response.text) : null;
        };
        const untilDelivered = async (emailId: string, t0: number): Promise<number | null> => {
          for (;;) {
            const body = (await getJson(`/emails/${emailId}`)) as { email: { status: string } } | null;
            if (body?.email.status === 'delivered') return performance.now() - t0;
            if (body && FINAL_EMAIL.has(body.email.status)) return null;
            if (performance.now() - t0 > 60_000) return null;
            await sleep(POLL_MS);
          }
        };
        for (let i = 0; i < SINGLE; i++) {
          // The event: 202, then the run's step done (its email id), then that email delivered.
          let t0 = performance.now();
          const event = await postEvent(client, sequence++);
          if (!event.item) {
            single.failures.push(`event: ${event.label}`);
          } else {
            single.eventAccepted.push(performance.now() - t0);
            let emailId: string | undefined;
            for (;;) {
              const body = (await getJson(`/automations/${automationId}/runs/${event.item.runId}`)) as {
                run: { status: string; error: string | null; steps: { status: string; output: { email_id?: string } | null }[] };
              } | null;
              emailId = body?.run.steps[0]?.output?.email_id;
              if (emailId) break;
              if (body && body.run.status !== 'running') break;
              if (performance.now() - t0 > 60_000) break;
              await sleep(POLL_MS);
            }
            if (!emailId) {
              single.failures.push(`event ${i}: run ${event.item.runId} has no email`);
            } else {
              single.eventRunDone.push(performance.now() - t0);
              const delivered = await untilDelivered(emailId, t0);
              if (delivered === null) single.failures.push(`event ${i}: email ${emailId} not delivered`);
              else single.eventDelivered.push(delivered);
            }
          }
          // The floor: the same email with POST /emails.
          t0 = performance.now();
          const email = await postEmail(client, sequence++);
          if (!email.item) {
            single.failures.push(`email: ${email.label}`);
            continue;
          }
          single.floorAccepted.push(performance.now() - t0);
          const delivered = await untilDelivered(email.item.emailId!, t0);
          if (delivered === null) single.failures.push(`email ${i}: ${email.item.emailId} not delivered`);
          else single.floorDelivered.push(delivered);
        }
        client.close();
        await drain();
      }

      // --- RUNS at once: the floor (plain sends), then the events, each tracked until settled.
      const bulk: BulkPhase[] = [];
      const runBulk = async (kind: 'floor' | 'events'): Promise<BulkPhase> => {
        const label = kind === 'floor' ? `floor: ${RUNS} POST /emails` : `${RUNS} runs`;
        log(`${label} at concurrency ${CONCURRENCY}`);
        const tracker = new Tracker(db, tableName);
        const client = new HttpClient(stack.apiUrl, CONCURRENCY);
        const observeMark = await observer?.mark(stack.apiUrl);
        const cpuBefore = cpuSecondsByRole(pids);
        const benchBefore = process.cpuUsage();
        const origin = Date.now();
        let lastAnswerAt = origin;
        // The first request's item, followed closely (every 10 ms) by a watcher of its own.
        let first: Tracked | undefined;
        let firstRunDoneClientMs: number | undefined;
        let firstDeliveredClientMs: number | undefined;
        let watching = true;
        const watcher = (async () => {
          while (watching && !first) await sleep(1);
          let emailId = first?.emailId;
          while (watching && first?.runId && !emailId) {
            const { Item } = await db.send(
              new GetCommand({ TableName: tableName, Key: { PK: `RUN#${first.runId}`, SK: 'RUN' }, ConsistentRead: true }),
            );
            emailId = (Item?.history as { output?: { email_id?: string } }[] | undefined)?.[0]?.output?.email_id;
            if (emailId) firstRunDoneClientMs = Date.now() - origin;
            else if (Item && Item.status !== 'running') return;
            else await sleep(WATCH_MS);
          }
          while (watching && emailId) {
            const { Item } = await db.send(
              new GetCommand({ TableName: tableName, Key: { PK: `EMAIL#${emailId}`, SK: 'EMAIL' }, ConsistentRead: true }),
            );
            if (Item?.status === 'delivered') {
              firstDeliveredClientMs = Date.now() - origin;
              return;
            }
            if (Item && FINAL_EMAIL.has(Item.status as string)) return;
            await sleep(WATCH_MS);
          }
        })();
        const firing = countedLoop(CONCURRENCY, RUNS, async (i) => {
          const outcome = kind === 'floor' ? await postEmail(client, sequence++, tracker) : await postEvent(client, sequence++, tracker);
          if (i === 0 && outcome.item) first = outcome.item;
          lastAnswerAt = Date.now();
          return outcome;
        });
        const peaks: Record<string, number> = {};
        const settled = await settle(label, tracker, firing, RUNS, peaks);
        const result = await firing;
        watching = false;
        await watcher;
        client.close();
        // A last full pass over every open item (no early stop), then the store's own counts for the window.
        await tracker.poll(true);
        const windowEnd = Date.now();
        const storeRuns =
          kind === 'events'
            ? await countByStatus(db, tableName, 'GSI1', `AUTOMATION#${automationId}#RUNS`, 'run', origin, windowEnd, ulid)
            : undefined;
        // The account's email index is sharded (shared/adapters/store/email-index-shard.ts): every shard counts.
        const shardCounts = await Promise.all(
          Array.from({ length: EMAIL_INDEX_SHARDS as number }, (_, shard) =>
            countByStatus(db, tableName, 'GSI4', `ACCOUNT#${account.id}#EMAILS#${shard}`, 'msg', origin, windowEnd, ulid),
          ),
        );
        const storeEmails: Record<string, number> = {};
        for (const counts of shardCounts)
          for (const [status, n] of Object.entries(counts)) storeEmails[status] = (storeEmails[status] ?? 0) + n;
        // The phase's work ends when every queue is empty too (the webhook events of its runs and emails):
        // its CPU is counted up to there.
        const drainMs = await drain(Math.max(300_000, TIMEOUT_MS));
        const drainedAt = Date.now();
        const cpuAfter = cpuSecondsByRole(pids);
        const bench = process.cpuUsage(benchBefore);
        const deliveredEmails = tracker.items.filter((item) => item.emailStatus === 'delivered').length;
        const cost =
          observer && observeMark
            ? (
                await observer.since(observeMark, stack.apiUrl, label, {
                  messages: deliveredEmails,
                  apiRequests: result.ok + result.errors,
                })
              ).cost
            : undefined;
        log(
          `${label}: ${result.ok} accepted, ${result.errors} errors; settled ${settled.timedOut ? 'NOT (timed out)' : `in ${((settled.settledAt! - origin) / 1000).toFixed(1)} s`}; drained in ${(drainMs / 1000).toFixed(1)} s`,
        );
        return {
          kind,
          cost,
          result,
          items: tracker.items,
          origin,
          lastAnswerAt,
          firstDeliveredClientMs,
          firstRunDoneClientMs,
          settledClientMs: settled.settledAt === undefined ? undefined : settled.settledAt - origin,
          timedOut: settled.timedOut,
          drainedClientMs: drainedAt - origin,
          peaks,
          cpu: Object.fromEntries(
            Object.entries(cpuAfter).map(([role, seconds]) => [role, seconds - cpuBefore[role as ProcessRole]]),
          ) as Record<ProcessRole, number>,
          benchCpu: (bench.user + bench.system) / 1e6,
          trackerReads: tracker.reads,
          storeRuns,
          storeEmails,
        };
      };
      if (RUNS > 0) {
        bulk.push(await runBulk('floor'));
        bulk.push(await runBulk('events'));
      }
      setup.close();

      const dlqDepths: Record<string, number> = {};
      for (const queue of Object.values(QUEUES) as { dlqName: string }[]) {
        try {
          const { QueueUrl } = await control.send(new GetQueueUrlCommand({ QueueName: queue.dlqName }));
          dlqDepths[queue.dlqName] = await queueDepth(QueueUrl!);
        } catch {
          // a queue without a DLQ
        }
      }
      const busyRss = rssMb(pids);
      control.destroy();
      const lost = report({
        commit,
        dirty,
        loadBefore,
        loadAfter: loadavg(),
        seconds: (Date.now() - started) / 1000,
        single,
        bulk,
        idleRss,
        busyRss,
        dlqDepths,
        observer,
      });
      if (lost > 0) log(`LOST: ${lost}`);
    },
  ).finally(() => {
    if (costDir) rmSync(costDir, { recursive: true, force: true });
  });
}

function report(input: {
  commit: string;
  dirty: boolean;
  loadBefore: number[];
  loadAfter: number[];
  seconds: number;
  single: SinglePhase;
  bulk: BulkPhase[];
  idleRss: number;
  busyRss: number;
  dlqDepths: Record<string, number>;
  /** --cost, --count-calls, --cpu-prof: what was observed over the bulk phases. */
  observer?: StackObserver;
}): number {
  const out: string[] = [];
  const print = (line = '') => out.push(line);
  const { single, bulk } = input;
  const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
  const p = (values: number[], pct: number) => ms(percentile(sorted(values), pct));
  const max = (values: number[]) => (values.length ? ms(Math.max(...values)) : '-');
  const three = (values: number[]) => `${p(values, 50)} / ${p(values, 90)} / ${max(values)}`;
  const threeS = (values: number[]) =>
    values.length ? [50, 90, 100].map((pct) => (percentile(sorted(values), pct) / 1000).toFixed(1)).join(' / ') : '-';
  const s = (msec: number | undefined) => (msec === undefined || !Number.isFinite(msec) ? '-' : (msec / 1000).toFixed(1));
  const load = (l: number[]) => l.map((value) => value.toFixed(2)).join(', ');

  print();
  print(
    `Automations (npm run bench:automations -- --runs ${RUNS} --single ${SINGLE} --concurrency ${CONCURRENCY}): commit ${input.commit}${input.dirty ? ' + working tree' : ''}, ${cpus().length} cores, load average ${load(input.loadBefore)} before, ${load(input.loadAfter)} after; ${input.seconds.toFixed(0)} s in all.`,
  );
  print(
    `In-memory local cloud, reconciler once a minute, ${LOCAL_BOUNDS ? 'local' : "AWS's"} recovery bounds. Automation: trigger ${TRIGGER}, one send_email step; floor: POST /emails with the same from, to, subject and text.`,
  );
  print();

  if (SINGLE > 0) {
    print(`1 run at a time (${SINGLE} of each, alternating; polled through the API every ${POLL_MS} ms), ms p50 / p90 / max:`);
    print();
    print(
      table(
        ['', 'n', 'request -> 202 / 200', "-> run's step done (email accepted)", '-> delivered'],
        [
          [
            'POST /events -> run -> email',
            String(single.eventDelivered.length),
            three(single.eventAccepted),
            three(single.eventRunDone),
            three(single.eventDelivered),
          ],
          ['floor: POST /emails', String(single.floorDelivered.length), three(single.floorAccepted), '-', three(single.floorDelivered)],
        ],
      ),
    );
    const ratio = percentile(sorted(single.eventDelivered), 50) / percentile(sorted(single.floorDelivered), 50);
    print(
      `Event -> delivered over the floor's accept -> delivered, p50: ${Number.isFinite(ratio) ? ratio.toFixed(2) : '-'} (+${ms(percentile(sorted(single.eventDelivered), 50) - percentile(sorted(single.floorDelivered), 50))} ms).`,
    );
    if (single.failures.length) print(`Failures: ${single.failures.join('; ')}`);
    print();
  }

  let lost = 0;
  if (bulk.length) {
    const floor = bulk.find((phase) => phase.kind === 'floor');
    const events = bulk.find((phase) => phase.kind === 'events');
    const phases = [events, floor].filter((phase): phase is BulkPhase => Boolean(phase));
    const since = (phase: BulkPhase, pick: (item: Tracked) => number | undefined, how: 'min' | 'max') => {
      const times = phase.items.map(pick).filter((t): t is number => t !== undefined);
      if (!times.length) return undefined;
      return (how === 'min' ? Math.min(...times) : Math.max(...times)) - phase.origin;
    };
    const perItem = (phase: BulkPhase) =>
      phase.items
        .filter((item) => item.deliveredAt !== undefined && item.createdAt !== undefined)
        .map((item) => item.deliveredAt! - item.createdAt!);
    const runEnd = (phase: BulkPhase) =>
      phase.items
        .filter((item) => item.runEndedAt !== undefined && item.createdAt !== undefined)
        .map((item) => item.runEndedAt! - item.createdAt!);
    const cpuPer = (phase: BulkPhase) => {
      const n = phase.items.filter((item) => item.emailStatus === 'delivered').length || 1;
      const node = (phase.cpu['stack Node'] * 1000) / n;
      const java = (phase.cpu['DynamoDB Local (Java)'] * 1000) / n;
      return `${(node + java).toFixed(1)} (${node.toFixed(1)} + ${java.toFixed(1)}); bench ${((phase.benchCpu * 1000) / n).toFixed(1)}`;
    };
    const statusText = (counts: Record<string, number> | undefined) =>
      counts
        ? Object.entries(counts)
            .sort()
            .map(([status, n]) => `${status} ${n}`)
            .join(', ') || 'none'
        : '-';
    const rate = (phase: BulkPhase) => (phase.result.ok / (phase.result.elapsedMs / 1000)).toFixed(1);
    const label = (phase: BulkPhase) => (phase.kind === 'events' ? `POST /events -> runs` : 'floor: POST /emails');
    const col = (fn: (phase: BulkPhase) => string) => phases.map(fn);

    print(
      `${RUNS} at once: closed loop at c=${CONCURRENCY}, floor first, each phase tracked until every run and email settled. Times in s from the phase's first request (host clock):`,
    );
    print();
    const rows: string[][] = [
      [
        'accepted (202 / 200) of requests',
        ...col(
          (phase) =>
            `${phase.result.ok} / ${phase.result.ok + phase.result.errors}${phase.result.errors ? ` (${JSON.stringify(phase.result.outcomes)})` : ''}`,
        ),
      ],
      ['accepted per second', ...col(rate)],
      ['request latency p50 / p99 ms', ...col((phase) => `${p(phase.result.latencies, 50)} / ${p(phase.result.latencies, 99)}`)],
      ['-> last request answered', ...col((phase) => s(phase.lastAnswerAt - phase.origin))],
      [
        "-> first request's run completed (watched every 10 ms)",
        ...col((phase) => (phase.kind === 'events' ? s(phase.firstRunDoneClientMs) : '-')),
      ],
      ["-> first request's email delivered (watched every 10 ms)", ...col((phase) => s(phase.firstDeliveredClientMs))],
      ['-> first email delivered (any; delivered_at)', ...col((phase) => s(since(phase, (item) => item.deliveredAt, 'min')))],
      [
        '-> all runs completed (last ended_at)',
        ...col((phase) => (phase.kind === 'events' ? s(since(phase, (item) => item.runEndedAt, 'max')) : '-')),
      ],
      ['-> all emails delivered (last delivered_at)', ...col((phase) => s(since(phase, (item) => item.deliveredAt, 'max')))],
      ['-> tracker saw everything settled', ...col((phase) => (phase.timedOut ? 'timed out' : s(phase.settledClientMs)))],
      ['-> every worker queue drained (webhook events included)', ...col((phase) => s(phase.drainedClientMs))],
      [
        'delivered per second, first request to last delivered',
        ...col((phase) => {
          const last = since(phase, (item) => item.deliveredAt, 'max');
          return last ? ((phase.items.filter((item) => item.emailStatus === 'delivered').length * 1000) / last).toFixed(1) : '-';
        }),
      ],
      [
        'per item: event / email created -> run ended, s p50 / p90 / max',
        ...col((phase) => (phase.kind === 'events' ? threeS(runEnd(phase)) : '-')),
      ],
      ['per item: event / email created -> delivered, s p50 / p90 / max', ...col((phase) => threeS(perItem(phase)))],
      ['CPU ms per delivered email, first request to drained: stack (Node + Java); bench', ...col(cpuPer)],
      [
        `largest queue depths seen (sampled every ${PROGRESS_MS / 1000} s)`,
        ...col(
          (phase) =>
            Object.entries(phase.peaks)
              .filter(([, depth]) => depth > 0)
              .sort((a, b) => b[1] - a[1])
              .map(([name, depth]) => `${name} ${depth}`)
              .join(', ') || '-',
        ),
      ],
      [
        'runs (tracked): completed / failed / cancelled / open',
        ...col((phase) =>
          phase.kind === 'events'
            ? ['completed', 'failed', 'cancelled']
                .map((st) => phase.items.filter((item) => item.runStatus === st).length)
                .concat(phase.items.filter((item) => !FINAL_RUN.has(item.runStatus ?? '')).length)
                .join(' / ')
            : '-',
        ),
      ],
      [
        'emails (tracked): delivered / other final / open',
        ...col((phase) => {
          const delivered = phase.items.filter((item) => item.emailStatus === 'delivered').length;
          const other = phase.items.filter((item) => item.emailStatus && item.emailStatus !== 'delivered').length;
          return `${delivered} / ${other} / ${phase.items.length - delivered - other}`;
        }),
      ],
      ["store, runs in the phase's id window by status", ...col((phase) => statusText(phase.storeRuns))],
      ["store, emails in the phase's id window by status", ...col((phase) => statusText(phase.storeEmails))],
      ['tracker reads (items read by the bench)', ...col((phase) => String(phase.trackerReads))],
    ];
    print(table(['figure', ...phases.map(label)], rows));
    print();
    if (events && floor) {
      const eventsRate = events.result.ok / (events.result.elapsedMs / 1000);
      const floorRate = floor.result.ok / (floor.result.elapsedMs / 1000);
      const eventsAll = since(events, (item) => item.deliveredAt, 'max');
      const floorAll = since(floor, (item) => item.deliveredAt, 'max');
      print(
        `Against the floor: events accepted per second ${(eventsRate / floorRate).toFixed(2)} x the floor's emails per second; all ${RUNS} delivered in ${eventsAll && floorAll ? (eventsAll / floorAll).toFixed(2) : '-'} x the floor's time.`,
      );
    }
    for (const phase of phases) {
      const accepted = phase.result.ok;
      const delivered = phase.items.filter((item) => item.emailStatus === 'delivered').length;
      const phaseLost = accepted - delivered;
      if (phase.kind === 'events') {
        const completed = phase.items.filter((item) => item.runStatus === 'completed').length;
        const storeCompleted = phase.storeRuns?.completed ?? 0;
        const storeTotal = Object.values(phase.storeRuns ?? {}).reduce((a, b) => a + b, 0);
        const storeDelivered = phase.storeEmails.delivered ?? 0;
        const storeEmails = Object.values(phase.storeEmails).reduce((a, b) => a + b, 0);
        print(
          `Runs: events accepted ${accepted}, runs completed ${completed} (store: ${storeCompleted} of ${storeTotal} in the window), emails delivered ${delivered} (store: ${storeDelivered} of ${storeEmails}): ${completed === accepted && delivered === completed && storeTotal === accepted && storeEmails === accepted ? 'runs completed == events accepted, emails delivered == runs, no duplicates' : 'MISMATCH'}.`,
        );
      }
      if (phaseLost > 0)
        print(
          `LOST (${label(phase)}): ${phaseLost} accepted but not delivered${phase.timedOut ? ` within ${TIMEOUT_MS / 1000} s after the last request` : ''}`,
        );
      else print(`LOST (${label(phase)}): 0`);
      lost += Math.max(0, phaseLost);
    }
    print();
    if (input.observer) input.observer.print(print, 'delivered email');
  }
  const dlqTotal = Object.values(input.dlqDepths).reduce((a, b) => a + b, 0);
  print(
    `Memory of the stack's process tree (Node + DynamoDB Local), RSS: ${input.idleRss.toFixed(0)} MB after start-up, ${input.busyRss.toFixed(0)} MB after the run. Dead-letter queues: ${dlqTotal === 0 ? 'empty' : JSON.stringify(input.dlqDepths)}.`,
  );
  console.log(out.join('\n'));
  return lost;
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
