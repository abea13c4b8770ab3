/**
 * The tenant ramp across real UTC days, on a stack of its own whose clock the test moves
 * (PUT /_local/clock: every function of the stack reads the same offset). Nothing is preset: the days'
 * figures come from real sends, delivered and bounced by the SES emulator and counted by the
 * tenant-stats worker. A day that used half of a stream with no bounces doubles the limits on the
 * first send of the next day (once); a quiet day or a bouncing day does not; usage resets at 00:00 UTC.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnStack, type SpawnedStack } from './harness/spawn-stack';

const DAY_MS = 86_400_000;

describe('tenant ramp across UTC days (moved clock, stack of its own)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'mailservice-ramp-days-'));
  let own: SpawnedStack;
  // The harness modules read TEST_STACK_DATA_DIR on first use: point them at this test's stack.
  let harness: typeof import('./harness/stack');
  let dns: typeof import('./harness/dns');
  let tenants: typeof import('./harness/tenants');

  beforeAll(async () => {
    // Its functions' warnings and errors on (the harness silences them): a timed-out wait prints their error lines.
    // Not their info lines: 500-recipient days logged about 2 s of this file's CPU (16.1 s with, 13.4-14.9 without).
    own = await spawnStack({ dataDir, inMemory: true, timeoutMs: 90_000, env: { LOG_LEVEL: 'warn' } });
    process.env.TEST_STACK_DATA_DIR = dataDir;
    harness = await import('./harness/stack');
    dns = await import('./harness/dns');
    tenants = await import('./harness/tenants');
  }, 120_000);

  afterAll(async () => {
    await own?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  // Day 0 is today (UTC) at noon, whatever time the test runs: no real midnight falls inside a test.
  const NOON = Date.parse(`${new Date().toISOString().slice(0, 10)}T12:00:00.000Z`);
  const setClock = async (daysMs: number) => {
    const moved = await harness.api('PUT', '/_local/clock', { body: { now: new Date(NOON + daysMs).toISOString() } });
    expect(moved.status).toBe(200);
    return moved.body as { now: string; offset_ms: number };
  };

  /**
   * harness.waitFor, whose timeout also says what the stack was doing: its stream mappings' and tasks'
   * states from /health, and the last lines it printed (warnings and errors: its stack logs at LOG_LEVEL=warn). A
   * count that never came (once in a whole run, day 1's) then says which pipeline stalled.
   */
  async function waitFor<T>(probe: () => Promise<T | undefined>, what: string, timeoutMs: number, everyMs: number): Promise<T> {
    try {
      return await harness.waitFor(probe, what, timeoutMs, everyMs);
    } catch (error) {
      const health = await harness.api('GET', '/health').catch((e: Error) => ({ body: e.message }));
      // The stream mappings' states, any component not up, and the queues (the on-failure queues among them).
      const { components, queues } = health.body as { components?: Record<string, string>; queues?: Record<string, { messages: number }> };
      const streams = components
        ? {
            components: Object.fromEntries(
              Object.entries(components).filter(([name, state]) => name.startsWith('stream:') || state !== 'up'),
            ),
            queues: Object.fromEntries(Object.entries(queues ?? {}).filter(([, queue]) => queue.messages > 0)),
          }
        : health.body;
      const lines = own
        .output()
        .split('\n')
        .filter((line) => !line.startsWith('[local-cloud] dns:'));
      const printed = lines.slice(-40).join('\n');
      // Why a worker failed (its own error lines: a tenant-stats batch stopped once in a whole run), however early.
      const failures = lines
        .filter((line) => /error|failed|batch stopped/i.test(line))
        .slice(-20)
        .join('\n');
      throw new Error(
        `${(error as Error).message}\n/health: ${JSON.stringify(streams)}\nthe stack printed last:\n${printed}\nits error lines:\n${failures || '(none)'}`,
        { cause: error },
      );
    }
  }

  /** A production account with tenants and an account-wide verified domain. */
  async function setUp() {
    const account = await harness.newAccount({ plan: 'scale', paymentMethod: true, tenants: true });
    const name = dns.uniqueDomain();
    const created = await harness.api('POST', '/domains', { key: account.key, body: { name } });
    await dns.publishAll(created.body.domain.records);
    const verified = await harness.api('POST', `/domains/${created.body.domain.id}`, { key: account.key, body: { action: 'verify' } });
    expect(verified.body.domain.status).toBe('verified');
    return { account, domain: name };
  }

  /** `sends` product sends of 50 recipients each (`bouncing` of them to bounce addresses), all accepted. */
  async function productDay(account: { key: string }, domain: string, tenant: string, sends: number, bouncing = 0) {
    for (let i = 0; i < sends; i++) {
      const local = i < bouncing ? 'bounce' : 'success';
      const to = Array.from({ length: 50 }, (_, n) => `${local}+r${i}-${n}@simulator.amazonses.com`);
      const sent = await harness.api('POST', '/emails', {
        key: account.key,
        body: { from: `news@${domain}`, to, subject: `day ${i}`, text: 'hi', tenant, category: 'product' },
      });
      expect(sent.status).toBe(200);
    }
  }

  /** Waits until the tenant-stats worker has counted the day's outcomes. */
  async function settled(account: { key: string }, tenant: string, expect_: { sent: number; bounced?: number }) {
    return waitFor(
      async () => {
        const stats = await harness.api('GET', `/tenants/${tenant}/stats?days=1`, { key: account.key });
        const today = stats.body?.stats;
        return today && today.sent >= expect_.sent && today.bounced >= (expect_.bounced ?? 0) ? stats.body : undefined;
      },
      `tenant ${tenant} stats to count ${JSON.stringify(expect_)}`,
      // 500 recipients are 500 per-recipient Delivery or Bounce events for the stats worker (as SES publishes them).
      90_000,
      200,
    );
  }

  it('the clock endpoint moves the functions clock and refuses nonsense', async () => {
    expect((await harness.api('PUT', '/_local/clock', { body: { offset_ms: 'soon' } })).status).toBe(400);
    const moved = await setClock(3 * DAY_MS);
    expect(Math.abs(Date.parse(moved.now) - (NOON + 3 * DAY_MS))).toBeLessThan(5_000);
    const { account } = await setUp();
    const tenant = await harness.api('POST', '/tenants', { key: account.key, body: { external_id: `clock-${Date.now()}` } });
    // The functions see the moved time: the tenant's created_at is three days ahead.
    expect(Math.abs(Date.parse(tenant.body.tenant.created_at) - (NOON + 3 * DAY_MS))).toBeLessThan(60_000);
    // offset_ms works too.
    expect((await harness.api('PUT', '/_local/clock', { body: { offset_ms: DAY_MS } })).body.offset_ms).toBe(DAY_MS);
    expect((await harness.api('DELETE', '/_local/clock')).body.offset_ms).toBe(0);
  });

  it('doubles after a day that used half with no bounces, once; resets usage at 00:00 UTC; a quiet day keeps the stage', async () => {
    await setClock(0);
    const { account, domain } = await setUp();
    const tenant = (await tenants.createTenant(account)).external_id;

    // Day 0: 10 sends x 50 = 500 product recipients, half of stage 1's 1,000.
    await productDay(account, domain, tenant, 10);
    const day0 = await settled(account, tenant, { sent: 10 });
    expect(day0.ramp).toMatchObject({ stage: 1, daily_limit: { transactional: 3000, product: 1000 }, used_today: { product: 500 } });

    // Day 1: the first send evaluates day 0 (qualified): stage 2, usage starts again from 0.
    await setClock(DAY_MS);
    const answers = await Promise.all(
      Array.from({ length: 4 }, () =>
        harness.api('POST', '/emails', {
          key: account.key,
          body: { from: `news@${domain}`, to: 'success@simulator.amazonses.com', subject: 'd1', text: 'hi', tenant, category: 'product' },
        }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    const day1 = await harness.api('GET', `/tenants/${tenant}/stats?days=2`, { key: account.key });
    expect(day1.body.ramp).toMatchObject({
      stage: 2,
      daily_limit: { transactional: 6000, product: 2000 },
      used_today: { product: 4, transactional: 0 },
    });
    // Two days of counters (the tenant-stats worker counts within a second or so): day 0's ten sends and day 1's four.
    const twoDays = await waitFor(
      async () => {
        const stats = await harness.api('GET', `/tenants/${tenant}/stats?days=2`, { key: account.key });
        return stats.body.stats.total >= 14 ? stats.body.stats : undefined;
      },
      'day 1 counted',
      90_000,
      200,
    );
    expect(twoDays).toMatchObject({ days: 2, total: 14 });
    expect(day1.body.stats.from).toBe(`${new Date(NOON).toISOString().slice(0, 10)}T00:00:00.000Z`);
    // Concurrent first sends of the day moved the stage once.
    const stored = await harness.stack().services.tenants.find(account.id, tenant);
    expect(stored!.ramp.stage).toBe(2);

    // Day 2: day 1 used 4 of 2,000: not qualified, the stage stays.
    await setClock(2 * DAY_MS);
    expect(
      (
        await harness.api('POST', '/emails', {
          key: account.key,
          body: { from: `news@${domain}`, to: 'success@simulator.amazonses.com', subject: 'd2', text: 'hi', tenant, category: 'product' },
        })
      ).status,
    ).toBe(200);
    const day2 = await harness.api('GET', `/tenants/${tenant}/stats?days=1`, { key: account.key });
    // Today's counters hold only today's send (the counters are per UTC day of acceptance).
    // Waits for a count, then asserts it is exactly today's one (a wait for "=== 1" hid what it saw instead).
    const today = await waitFor(
      async () => {
        const stats = (await harness.api('GET', `/tenants/${tenant}/stats?days=1`, { key: account.key })).body.stats;
        return stats.total >= 1 ? stats : undefined;
      },
      'day 2 counted',
      90_000,
      200,
    );
    expect(today).toMatchObject({ days: 1, total: 1 });
    expect(day2.body.ramp).toMatchObject({ stage: 2, used_today: { product: 1 } });
  }, 300_000);

  it('a day with bounces over 2% does not move the ramp, and the next day still has stage 1 limits', async () => {
    await setClock(10 * DAY_MS);
    const { account, domain } = await setUp();
    const tenant = (await tenants.createTenant(account)).external_id;
    // 500 recipients, one send of 50 to bounce addresses.
    await productDay(account, domain, tenant, 10, 1);
    await settled(account, tenant, { sent: 10, bounced: 1 });
    await setClock(11 * DAY_MS);
    expect(
      (
        await harness.api('POST', '/emails', {
          key: account.key,
          body: { from: `news@${domain}`, to: 'success@simulator.amazonses.com', subject: 'next', text: 'hi', tenant, category: 'product' },
        })
      ).status,
    ).toBe(200);
    const next = await harness.api('GET', `/tenants/${tenant}/stats`, { key: account.key });
    expect(next.body.ramp).toMatchObject({ stage: 1, daily_limit: { product: 1000 }, used_today: { product: 1 } });
  }, 240_000);
});
