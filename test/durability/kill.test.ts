/**
 * Zero loss across crashes: the local cloud on disk, bursts of sends (immediate, batch and scheduled,
 * with webhooks subscribed), the whole process group SIGKILLed at a random point of each burst, restarted
 * on the same data, then drained. Every email answered 200 must reach `delivered`, be in the SES mailbox
 * exactly once, and have its email.sent and email.delivered webhooks delivered at least once, each with
 * one stable webhook-id. KILL_TEST_ROUNDS sets the number of kills (default 3); `npm run test:kill`
 * repeats the whole test (docs/reliability.md).
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readStackFile } from '#localstack/cloud/stack/stack-file';
import { loadConfig } from '#shared/config/config';
import { buildServices } from '#shared/services';
import { createAccount } from '#shared/usecases/access/accounts';
import { createTestCa } from '../support/https-receiver';
import { startHttpsReceiver, type HttpsReceiver } from '../support/https-receiver';
import { spawnStack, type SpawnedStack } from '../integration/harness/spawn-stack';

const ROUNDS = Number(process.env.KILL_TEST_ROUNDS ?? 3);
/** A burst is killed only once it has had at least this many answers (and after its random delay). */
const MIN_ANSWERS_PER_BURST = 5;
/** A burst call gives up after this long (the stack may have been killed under it). */
const BURST_TIMEOUT_MS = 10_000;
const SANDBOX = 'sandbox.mailservice.dev';
const random = (min: number, max: number) => min + Math.floor(Math.random() * (max - min));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Accepted {
  id: string;
  key: string;
  kind: 'single' | 'batch' | 'scheduled';
}

/**
 * One API call. A burst's calls give up after 10 s (the stack may be killed under them); the calls that set a round
 * up wait 60 s, since the first calls after a restart load their handlers, which on a loaded CI machine once took
 * more than 10 s.
 */
async function call(
  apiUrl: string,
  method: string,
  path: string,
  key: string,
  body?: unknown,
  timeoutMs = 60_000,
): Promise<{ status: number; body: any }> {
  const response = await fetch(`${apiUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(timeoutMs),
  });
  return { status: response.status, body: await response.json().catch(() => null) };
}

describe('kill test: SIGKILL mid-burst, restart, drain', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'mailservice-kill-'));
  let stack: SpawnedStack | undefined;
  let receiver: HttpsReceiver;
  let env: Record<string, string>;

  const start = async () => {
    stack = await spawnStack({ dataDir, inMemory: false, detached: true, env, timeoutMs: 90_000 });
    return stack;
  };

  beforeAll(async () => {
    const caDir = join(dataDir, 'test-ca');
    mkdirSync(caDir, { recursive: true });
    const ca = await createTestCa(caDir);
    receiver = await startHttpsReceiver({ certFile: ca.certFile, keyFile: ca.keyFile });
    env = {
      WEBHOOK_CA_FILE: ca.caFile,
      LOCAL_QUEUE_VISIBILITY_SECONDS: '2',
      WEBHOOK_RETRY_DELAYS: '0,1,1,1,1',
      // Recovery in seconds, not minutes: the reconciler every 2 s (a pass queries the due index's 32 shards:
      // at 500 ms the passes alone kept half a core busy through the drain), short bounds and lease.
      LOCAL_TASK_PERIOD_MS: '2000',
      RECOVERY_QUEUED_AFTER_S: '5',
      // The one window of a possible duplicate (docs/reliability.md): a send SES took whose worker died
      // before recording it is settled by SES's own event within the grace. A stack restarting on a
      // loaded 2-core machine can take more than 5 s to process the events the SES emulator re-publishes
      // (5 s let 5 of 23 emails go twice in one run), and this test runs among the suite's other files,
      // so the grace is 45 s here (5 min on AWS): the drain then waits about a minute, mostly idle.
      RECOVERY_SEND_GRACE_S: '45',
      RECOVERY_SCHEDULED_LATE_S: '3',
      RECOVERY_WEBHOOK_LATE_S: '5',
      SEND_LEASE_S: '8',
    };
  });

  afterAll(async () => {
    await stack?.stop();
    await receiver?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it(`loses, duplicates and strands nothing over ${ROUNDS} kills`, async () => {
    const accepted: Accepted[] = [];
    /** Every answer's status: a burst that got no 200s says why. */
    const refusals: number[] = [];
    let current = await start();
    for (let round = 1; round <= ROUNDS; round++) {
      // A fresh account per round (the sandbox allows 100 a day), subscribed before the burst.
      const info = readStackFile(dataDir)!;
      // The stack's endpoints and local credentials for the fixture writes (they change with each restart).
      Object.assign(process.env, info.env);
      const services = buildServices(loadConfig(info.env));
      const owner = `kill+${round}-${Date.now()}@example.com`;
      const { secret: key } = await createAccount(services, { email: owner, plan: 'free', paymentMethod: false, tenants: false });
      expect(
        (await call(current.apiUrl, 'POST', '/webhooks', key, { url: receiver.url, events: ['email.sent', 'email.delivered'] })).status,
      ).toBe(200);

      const apiUrl = current.apiUrl;
      let bursting = true;
      const email = (subject: string) => ({ from: `a@${SANDBOX}`, to: owner, subject, text: subject });
      const loop = async () => {
        while (bursting) {
          const kind = (['single', 'batch', 'scheduled'] as const)[random(0, 3)]!;
          try {
            if (kind === 'batch') {
              const response = await call(
                apiUrl,
                'POST',
                '/emails/batch',
                key,
                [email(`r${round} batch a`), email(`r${round} batch b`)],
                BURST_TIMEOUT_MS,
              );
              refusals.push(response.status);
              if (response.status === 200) for (const { id } of response.body.data) accepted.push({ id, key, kind });
            } else {
              const body =
                kind === 'scheduled'
                  ? { ...email(`r${round} scheduled`), scheduled_at: new Date(Date.now() + random(1000, 4000)).toISOString() }
                  : email(`r${round} single`);
              const response = await call(apiUrl, 'POST', '/emails', key, body, BURST_TIMEOUT_MS);
              refusals.push(response.status);
              if (response.status === 200) accepted.push({ id: response.body.id, key, kind });
            }
          } catch {
            // The stack was killed under this request: it was never answered, so it is not counted.
            await sleep(20);
          }
        }
      };
      // One awaited send first: after a restart the emails handlers load on first use, which can take
      // longer than a whole burst on a busy machine; the kill point is counted from this answer.
      const first = await call(apiUrl, 'POST', '/emails', key, email(`r${round} first`));
      refusals.push(first.status);
      expect(first.status).toBe(200);
      accepted.push({ id: first.body.id, key, kind: 'single' });
      const loops = Array.from({ length: 4 }, loop);
      // Kill at a random point of the burst, but not before the burst has had answers of its own: on a
      // loaded machine 0.8-2 s can pass before the first one (the kill would then test nothing).
      const answeredBefore = refusals.length;
      await sleep(random(800, 2000));
      const patience = Date.now() + 20_000;
      while (refusals.length - answeredBefore < MIN_ANSWERS_PER_BURST && Date.now() < patience) await sleep(50);
      await current.killGroup();
      bursting = false;
      await Promise.all(loops);
      current = await start();
    }

    expect({ accepted: accepted.length, answers: refusals.length }).toEqual({ accepted: expect.any(Number), answers: expect.any(Number) });
    if (accepted.length <= ROUNDS * 4)
      throw new Error(`too few sends accepted: ${accepted.length}; answers ${JSON.stringify(refusals.slice(0, 20))}`);
    const ids = new Set(accepted.map((a) => a.id));
    expect(ids.size).toBe(accepted.length);

    // Drain: every accepted email reaches its final status. The emails are read in order, each until it is
    // final (every one must get there, so reading the others meanwhile would only load the stack: 40-odd
    // reads a second through the minute of the send grace, when every email was read each second).
    const deadline = Date.now() + 120_000;
    const pending = [...accepted];
    const statuses = new Map<string, string>();
    const final = (status: string) => ['delivered', 'bounced', 'failed'].includes(status);
    const read = async (item: Accepted) => {
      const response = await call(current.apiUrl, 'GET', `/emails/${item.id}`, item.key);
      const status = response.status === 200 ? (response.body.email.status as string) : `http ${response.status}`;
      statuses.set(item.id, status);
      return status;
    };
    while (pending.length > 0 && Date.now() < deadline) {
      while (pending.length > 0 && final(await read(pending[0]!))) pending.shift();
      if (pending.length > 0) await sleep(1000);
    }
    // The emails still pending at the deadline, each read once more for the report.
    for (const item of pending) await read(item);
    const notFinal = pending.map((item) => `${item.id} (${item.kind}): ${statuses.get(item.id)}`);
    expect(notFinal).toEqual([]);
    expect([...statuses.values()].filter((status) => status !== 'delivered')).toEqual([]);

    // Exactly once in the SES mailbox (each email has one recipient).
    const mailbox = await fetch(`${current.apiUrl}/_local/ses/messages`).then(
      (r) => r.json() as Promise<{ messages: { tags: Record<string, string> }[] }>,
    );
    const copies = new Map<string, number>();
    for (const message of mailbox.messages)
      if (ids.has(message.tags.email_id!)) copies.set(message.tags.email_id!, (copies.get(message.tags.email_id!) ?? 0) + 1);
    expect(accepted.filter((a) => copies.get(a.id) !== 1).map((a) => `${a.id}: ${copies.get(a.id) ?? 0} copies`)).toEqual([]);

    // Every subscribed event at least once, each with one stable webhook-id.
    const webhookIds = new Map<string, Set<string>>();
    const missing = () => {
      webhookIds.clear();
      for (const request of receiver.requests) {
        const body = JSON.parse(request.body) as { type: string; data: { email_id: string } };
        const key = `${body.data.email_id} ${body.type}`;
        if (!webhookIds.has(key)) webhookIds.set(key, new Set());
        webhookIds.get(key)!.add(String(request.headers['webhook-id']));
      }
      return accepted.flatMap((a) =>
        ['email.sent', 'email.delivered'].filter((type) => !webhookIds.has(`${a.id} ${type}`)).map((type) => `${a.id} (${a.kind}) ${type}`),
      );
    };
    const webhookDeadline = Date.now() + 60_000;
    while (missing().length > 0 && Date.now() < webhookDeadline) await sleep(500);
    expect(missing()).toEqual([]);
    const kinds: Record<string, number> = {};
    for (const a of accepted) kinds[a.kind] = (kinds[a.kind] ?? 0) + 1;
    console.log(
      `kill test: ${ROUNDS} kills, ${accepted.length} emails accepted (${JSON.stringify(kinds)}), all delivered once; ${receiver.requests.length} webhook requests for ${webhookIds.size} events`,
    );
    expect([...webhookIds].filter(([, set]) => set.size !== 1).map(([key, set]) => `${key}: ${[...set].join(', ')}`)).toEqual([]);
  }, 600_000);
});
