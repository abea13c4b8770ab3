/**
 * The run store against DynamoDB Local (shared/adapters/store/runs.ts): every transition is one conditional write,
 * so racing starts, claims and completions resolve to exactly one winner; a dead attempt's step is
 * claimed again only after its lease; a wait ends once (one of its event, its firings, a re-drive); a
 * cancelled run takes no further step and leaves the user's and the due index. The runs live in a private
 * copy of the table, so the running stack's automation workers (which would relay and claim any pending
 * step) never race the claims these tests make.
 */
import { randomUUID } from 'node:crypto';
import { keys } from '#shared/adapters/store/keys';
import { RunRepository } from '#shared/adapters/store/runs';
import { ensureTemplateTable } from '../support/template-table';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { createAwsClients } from '#shared/adapters/aws/clients';
import { loadConfig } from '#shared/config/config';
import { newId } from '#shared/domain/ids';
import { newRun, type Run, type StepResult } from '#shared/domain/automations/run';
import type { Step } from '#shared/domain/automations/automation';
import { stack } from './harness/stack';

// As a definition stores them (validate.ts fills a send's `to`), so the run store reads them back.
const steps: Step[] = [
  { key: 'hello', type: 'send_email', to: ['{{event.email}}'], from: 'a@acme.test', subject: 'Hi', text: 'Welcome' },
  { key: 'later', type: 'delay', duration: '2 days' },
];

function run(eventId = newId('evt'), at = new Date(), automation = { id: newId('auto'), account_id: newId('acc') }): Run {
  return newRun({
    automation: { ...automation, name: 'Welcome', version: 3, steps, allowed_domains: null },
    event: {
      id: eventId,
      name: 'user.created',
      user_id: 'u1',
      email: 'u1@example.com',
      data: { plan: 'pro' },
      created_at: at.toISOString(),
    },
    subject: 'user:u1',
    now: at,
  });
}

const result = (index: number, at: string): StepResult => ({
  index,
  key: steps[index]!.key,
  type: steps[index]!.type,
  status: 'completed',
  started_at: at,
  completed_at: at,
  output: { n: index },
  error: null,
});

describe('the run store', () => {
  let repository: RunRepository;
  let table: { client: ReturnType<typeof createAwsClients>['dynamo']; name: string };
  const runs = () => repository;

  beforeAll(async () => {
    stack(); // loads the running stack's endpoints into process.env
    const config = loadConfig(process.env);
    const { dynamo } = createAwsClients(config);
    const name = `runs-store-test-${randomUUID().slice(0, 8)}`;
    await ensureTemplateTable(new DynamoDBClient({ region: config.region, endpoint: config.endpoints.dynamodb }), name);
    table = { client: dynamo, name };
    repository = new RunRepository(table);
  });

  it('starts a run once however many times (and however concurrently) the same event starts it', async () => {
    const first = run();
    const again = newRun({
      automation: { id: first.automation_id, account_id: first.account_id, name: 'Welcome', version: 4, steps, allowed_domains: null },
      event: first.event,
      subject: first.subject,
      now: new Date(Date.now() + 60_000),
    });
    expect(again.id).toBe(first.id);
    const outcomes = await Promise.all([first, again, first, again, first].map((r) => runs().start(r)));
    expect(outcomes.filter((o) => o.kind === 'started')).toHaveLength(1);
    const stored = await runs().get(first.id);
    expect(stored).toMatchObject({
      status: 'running',
      step_index: 0,
      step_state: 'pending',
      attempt: 0,
      event: { name: 'user.created', data: { plan: 'pro' } },
    });
    expect((await runs().list(first.automation_id, { limit: 10 })).items.map((r) => r.id)).toEqual([first.id]);
  });

  it('gives a pending step to exactly one of many concurrent claims', async () => {
    const r = run();
    await runs().start(r);
    const now = Date.now();
    const claims = await Promise.all(Array.from({ length: 10 }, () => runs().claimStep(r.id, 0, now, 30_000, new Date(now).toISOString())));
    const won = claims.filter((c) => c.kind === 'claimed');
    expect(won).toHaveLength(1);
    expect(won[0]).toMatchObject({ run: { step_state: 'claimed', attempt: 1, lease_until: now + 30_000 } });
    // Another step index, or the same step again while the lease lives: not claimable.
    expect(await runs().claimStep(r.id, 1, now, 30_000, new Date(now).toISOString())).toEqual({ kind: 'not_claimable' });
    expect(await runs().claimStep(r.id, 0, now + 29_000, 30_000, new Date(now).toISOString())).toEqual({ kind: 'not_claimable' });
  });

  it('lets another attempt take a step whose attempt died (lease over); the dead attempt can no longer complete it', async () => {
    const r = run();
    await runs().start(r);
    const now = Date.now();
    const at = new Date(now).toISOString();
    expect(await runs().claimStep(r.id, 0, now, 1_000, at)).toMatchObject({ kind: 'claimed', run: { attempt: 1 } });
    const retry = await runs().claimStep(r.id, 0, now + 1_001, 30_000, at);
    expect(retry).toMatchObject({ kind: 'claimed', run: { attempt: 2 } });
    expect(await runs().completeStep(r.id, 0, 1, result(0, at), { next: 1 })).toBeNull();
    const done = await runs().completeStep(r.id, 0, 2, result(0, at), { next: 1 });
    expect(done).toMatchObject({
      step_index: 1,
      step_state: 'pending',
      attempt: 0,
      lease_until: null,
      history: [{ index: 0, key: 'hello', status: 'completed', output: { n: 0 } }],
    });
  });

  it('records a step once: a repeated completion is refused, and the run ends completed or failed', async () => {
    const r = run();
    await runs().start(r);
    const now = Date.now();
    const at = new Date(now).toISOString();
    await runs().claimStep(r.id, 0, now, 30_000, at);
    const [a, b] = await Promise.all([
      runs().completeStep(r.id, 0, 1, result(0, at), { next: 1 }),
      runs().completeStep(r.id, 0, 1, result(0, at), { next: 1 }),
    ]);
    expect([a, b].filter((x) => x !== null)).toHaveLength(1);
    await runs().claimStep(r.id, 1, now, 30_000, at);
    const ended = await runs().completeStep(r.id, 1, 1, result(1, at), { end: 'completed' });
    expect(ended).toMatchObject({ status: 'completed', ended_at: at, error: null });
    expect(ended!.history.map((h) => h.index)).toEqual([0, 1]);
    // A finished run takes no claim.
    expect(await runs().claimStep(r.id, 1, now + 60_000, 30_000, at)).toEqual({ kind: 'not_claimable' });

    const failing = run();
    await runs().start(failing);
    await runs().claimStep(failing.id, 0, now, 30_000, at);
    expect(
      await runs().completeStep(
        failing.id,
        0,
        1,
        { ...result(0, at), status: 'failed', error: 'template missing' },
        { end: 'failed', error: 'template missing' },
      ),
    ).toMatchObject({
      status: 'failed',
      error: 'template missing',
    });
  });

  it('cancels a running run once; a cancelled run takes no step and records no result', async () => {
    const r = run();
    await runs().start(r);
    const now = Date.now();
    const at = new Date(now).toISOString();
    await runs().claimStep(r.id, 0, now, 30_000, at);
    const cancels = await Promise.all([runs().cancel(r.id, at, 'test'), runs().cancel(r.id, at, 'test')]);
    expect(cancels.filter((c) => c !== null)).toHaveLength(1);
    expect(await runs().completeStep(r.id, 0, 1, result(0, at), { next: 1 })).toBeNull();
    expect(await runs().claimStep(r.id, 0, now + 60_000, 30_000, at)).toEqual({ kind: 'not_claimable' });
    expect(await runs().get(r.id)).toMatchObject({ status: 'cancelled', history: [] });
  });

  it('ends a wait once: of racing events, firings and re-drives exactly one wins; another event none', async () => {
    const r = run();
    await runs().start(r);
    const now = Date.now();
    const at = new Date(now).toISOString();
    await runs().claimStep(r.id, 0, now, 30_000, at);
    const waiting = await runs().waitStep(r.id, 0, 1, now + 60_000, 'user.upgraded', at);
    expect(waiting).toMatchObject({
      step_state: 'waiting',
      waiting_for: 'user.upgraded',
      wake_at: new Date(now + 60_000).toISOString(),
      lease_until: null,
    });
    // The attempt that parked it cannot park it again, nor complete it.
    expect(await runs().waitStep(r.id, 0, 1, now + 90_000, null, at)).toBeNull();
    expect(await runs().completeStep(r.id, 0, 1, result(0, at), { next: 1 })).toBeNull();
    // Another event resumes nothing.
    expect(await runs().finishWaiting(r.id, 0, result(0, at), { next: 1 }, 'user.downgraded')).toBeNull();

    const racing = await Promise.all([
      ...Array.from({ length: 4 }, () => runs().finishWaiting(r.id, 0, result(0, at), { next: 1 }, 'user.upgraded')),
      ...Array.from({ length: 4 }, () => runs().finishWaiting(r.id, 0, result(0, at), { next: 1 })),
    ]);
    expect(racing.filter((x) => x !== null)).toHaveLength(1);
    expect(await runs().get(r.id)).toMatchObject({
      step_index: 1,
      step_state: 'pending',
      waiting_for: null,
      wake_at: null,
      attempt: 0,
      history: [{ index: 0 }],
    });
  });

  it("lists the user's running runs while they run; the write that ends one takes it out of the user's and the due index", async () => {
    const automation = { id: newId('auto'), account_id: newId('acc') };
    const [a, b] = [run(newId('evt'), new Date(), automation), run(newId('evt'), new Date(), automation)];
    await Promise.all([runs().start(a), runs().start(b)]);
    expect((await runs().runningForSubject(automation.account_id, 'user:u1')).map((x) => x.id).sort()).toEqual([a.id, b.id].sort());
    expect(await runs().runningForSubject(automation.account_id, 'user:u2')).toEqual([]);

    const at = new Date().toISOString();
    await runs().cancel(a.id, at, 'cancelled by event user.deleted');
    expect((await runs().runningForSubject(automation.account_id, 'user:u1')).map((x) => x.id)).toEqual([b.id]);
    const indexed = await table.client.send(
      new QueryCommand({
        TableName: table.name,
        IndexName: 'GSI3',
        KeyConditionExpression: 'GSI3PK = :pk',
        ExpressionAttributeValues: { ':pk': keys.runsBySubject(automation.account_id, 'user:u1') },
      }),
    );
    expect((indexed.Items ?? []).map((item) => item.id)).toEqual([b.id]);
    const { Item } = await table.client.send(new GetCommand({ TableName: table.name, Key: keys.run(a.id), ConsistentRead: true }));
    expect(Object.keys(Item!).filter((name) => name.startsWith('GSI2') || name.startsWith('GSI3'))).toEqual([]);
    expect(Item).toMatchObject({ status: 'cancelled', GSI1PK: keys.runsByAutomation(automation.id) });

    // The list filtered by status is the store's (a filtered query): only the runs in that status.
    expect((await runs().list(automation.id, { limit: 10 }, 'cancelled')).items.map((x) => x.id)).toEqual([a.id]);
    expect((await runs().list(automation.id, { limit: 10 }, 'running')).items.map((x) => x.id)).toEqual([b.id]);
    expect((await runs().list(automation.id, { limit: 10 })).items.map((x) => x.id).sort()).toEqual([a.id, b.id].sort());
  });
});
