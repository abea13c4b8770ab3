/**
 * The automation outbox (relayRuns): stream records of run writes (made by the in-memory store, so the
 * images are those of real transitions) decoded by its reader (runWrites) in; step messages and
 * automation.* webhooks out.
 */
import type { DynamoDBRecord } from 'aws-lambda';
import type { Step } from '#shared/domain/automations/automation';
import type { Run } from '#shared/domain/automations/run';
import type { AutomationStepMessage } from '#shared/domain/messages';
import type { ServiceEvent } from '#shared/domain/webhooks/event';
import { runWrites } from '#shared/adapters/store/run-changes';
import { relayRuns as relayChanges, type RelayRunsDeps } from '#shared/usecases/automations/runs/relay-runs';
import { forEachStreamBatch } from '#shared/doors/worker/for-each-stream-record';
import { decodeAll, inserted, modified, removed, streamRecord } from '../../support/stream-records';
import { FakeRuns, runItem, testRun } from './fake-runs';

process.env.LOG_LEVEL = 'silent';

/** The relay over the records as its reader decodes them. */
const relayRuns = (deps: RelayRunsDeps, records: readonly DynamoDBRecord[]) => relayChanges(deps, decodeAll(runWrites, records));

const START = Date.parse('2026-11-23T10:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();

const steps = [
  { key: 'welcome', type: 'send_email', to: ['{{event.email}}'], from: 'hello@acme.test', subject: 'Hi', text: 'Hello' },
  { key: 'wait', type: 'delay', duration: '1 day' },
  { key: 'check', type: 'condition', field: 'event.name', operator: 'exists' },
] as Step[];

const newRunFor = (eventId: string): Run => testRun(steps, { at: START, event: { id: eventId } });

function outbox(options: { failEnqueue?: Error } = {}) {
  const messages: AutomationStepMessage[] = [];
  const published: ServiceEvent[] = [];
  const deps: RelayRunsDeps = {
    stepQueue: {
      enqueueAll: async (batch) => {
        if (options.failEnqueue) throw options.failEnqueue;
        messages.push(...batch);
      },
    },
    events: { publish: async (batch) => void published.push(...batch) },
  };
  return { deps, messages, published };
}

/** A run store with one run, and the records of each transition made on it. */
async function transitions() {
  const runs = new FakeRuns();
  const run = newRunFor('ae_01JD8Z6X4Q2T9V3N5M7K1H0G8F');
  await runs.start(run);
  const inserted = runs.stream.length - 1;
  const claim = await runs.claimStep(run.id, 0, START, 45_000, iso(START));
  if (claim.kind !== 'claimed') throw new Error('not claimed');
  const claimed = runs.stream.length - 1;
  const at = iso(START + 1000);
  await runs.completeStep(
    run.id,
    0,
    1,
    {
      index: 0,
      key: 'welcome',
      type: 'send_email',
      status: 'completed',
      started_at: iso(START),
      completed_at: at,
      output: { email_id: 'msg_1' },
      error: null,
    },
    { next: 1 },
  );
  const completed = runs.stream.length - 1;
  const claim2 = await runs.claimStep(run.id, 1, START + 2000, 45_000, iso(START + 2000));
  if (claim2.kind !== 'claimed') throw new Error('not claimed');
  await runs.waitStep(run.id, 1, 1, START + 86_400_000, null, iso(START + 2000));
  const waited = runs.stream.length - 1;
  const record = (index: number) => runs.stream[index]!;
  return { runs, run, insert: record(inserted), claim: record(claimed), complete: record(completed), wait: record(waited) };
}

describe('relayRuns', () => {
  it('INSERT of a pending run: one step message for step 0 and automation.started', async () => {
    const { insert, run } = await transitions();
    const o = outbox();
    expect(await relayRuns(o.deps, [insert])).toEqual({ done: 1, enqueued: 1, published: 1 });
    expect(o.messages).toEqual([{ run_id: run.id, step_index: 0 }]);
    expect(o.published.map((e) => [e.type, e.data.run_id, e.data.step_index, e.data.step_key])).toEqual([
      ['automation.started', run.id, 0, 'welcome'],
    ]);
  });

  it('MODIFY pending -> claimed: nothing enqueued, nothing published', async () => {
    const { claim } = await transitions();
    const o = outbox();
    expect(await relayRuns(o.deps, [claim])).toEqual({ done: 1, enqueued: 0, published: 0 });
    expect(o.messages).toEqual([]);
    expect(o.published).toEqual([]);
  });

  it('MODIFY claimed -> the next step pending: a message for the new index and automation.step_completed', async () => {
    const { complete, run } = await transitions();
    const o = outbox();
    expect(await relayRuns(o.deps, [complete])).toEqual({ done: 1, enqueued: 1, published: 1 });
    expect(o.messages).toEqual([{ run_id: run.id, step_index: 1 }]);
    expect(o.published).toHaveLength(1);
    expect(o.published[0]).toMatchObject({
      type: 'automation.step_completed',
      created_at: iso(START + 1000),
      data: { status: 'running', step_index: 0, step_key: 'welcome', step_type: 'send_email', error: null },
    });
  });

  it('MODIFY to waiting: nothing enqueued, nothing published', async () => {
    const { wait } = await transitions();
    const o = outbox();
    expect(await relayRuns(o.deps, [wait])).toEqual({ done: 1, enqueued: 0, published: 0 });
  });

  it('a whole history in order: each pending step handed over once, each event once', async () => {
    const { runs, run } = await transitions();
    const o = outbox();
    expect(await relayRuns(o.deps, runs.stream)).toEqual({ done: 5, enqueued: 2, published: 2 });
    expect(o.messages).toEqual([
      { run_id: run.id, step_index: 0 },
      { run_id: run.id, step_index: 1 },
    ]);
    expect(o.published.map((e) => e.type)).toEqual(['automation.started', 'automation.step_completed']);
  });

  it('a waiting step that ends (the wake-up) hands over the next step; the end of the run enqueues nothing', async () => {
    const { runs, run } = await transitions();
    const from = runs.stream.length;
    await runs.finishWaiting(
      run.id,
      1,
      {
        index: 1,
        key: 'wait',
        type: 'delay',
        status: 'completed',
        started_at: iso(START + 2000),
        completed_at: iso(START + 86_400_000),
        output: null,
        error: null,
      },
      { next: 2 },
    );
    await runs.claimStep(run.id, 2, START + 86_400_000, 45_000, iso(START + 86_400_000));
    await runs.completeStep(
      run.id,
      2,
      1,
      {
        index: 2,
        key: 'check',
        type: 'condition',
        status: 'completed',
        started_at: iso(START + 86_400_000),
        completed_at: iso(START + 86_400_000),
        output: { result: true },
        error: null,
      },
      { end: 'completed' },
    );
    const o = outbox();
    expect(await relayRuns(o.deps, runs.stream.slice(from))).toEqual({ done: 3, enqueued: 1, published: 3 });
    expect(o.messages).toEqual([{ run_id: run.id, step_index: 2 }]);
    expect(o.published.map((e) => [e.type, e.data.step_key])).toEqual([
      ['automation.step_completed', 'wait'],
      ['automation.step_completed', 'check'],
      ['automation.completed', 'check'],
    ]);
  });

  it('a cancelled run enqueues and publishes nothing', async () => {
    const { runs, run } = await transitions();
    await runs.cancel(run.id, iso(START + 5000), 'cancelled by event user.deleted (ae_1)');
    const o = outbox();
    expect(await relayRuns(o.deps, [runs.stream[runs.stream.length - 1]!])).toEqual({ done: 1, enqueued: 0, published: 0 });
  });

  it('REMOVE records are ignored', async () => {
    const { run } = await transitions();
    const o = outbox();
    expect(await relayRuns(o.deps, [removed(runItem(run))])).toEqual({ done: 1, enqueued: 0, published: 0 });
  });

  it('a MODIFY without an old image publishes no event (its pending step is still handed over: the claim makes that harmless)', async () => {
    const { complete, run } = await transitions();
    const o = outbox();
    const { OldImage: _old, ...withoutOld } = complete.dynamodb!;
    expect(await relayRuns(o.deps, [{ ...complete, dynamodb: withoutOld }])).toEqual({ done: 1, enqueued: 1, published: 0 });
    expect(o.published).toEqual([]);
    expect(o.messages).toEqual([{ run_id: run.id, step_index: 1 }]);
  });

  it('an unreadable record stops the batch at its record (poison); the records before it are relayed', async () => {
    const { insert, run } = await transitions();
    const other = newRunFor('ae_01JD8Z6X4Q2T9V3N5M7K1H0G8G');
    const notARun = modified({ type: 'email', id: 'msg_1' }, { type: 'email', id: 'msg_1' });
    const records = [insert, removed({ type: 'run' }), notARun, inserted(runItem(other))];
    const o = outbox();
    const handler = forEachStreamBatch('automation-outbox', runWrites, async (decoded) => relayChanges(o.deps, decoded));
    expect(await handler({ Records: records })).toEqual({ batchItemFailures: [{ itemIdentifier: notARun.dynamodb!.SequenceNumber }] });
    expect(o.messages).toEqual([{ run_id: run.id, step_index: 0 }]);
    expect(o.messages.some((message) => message.run_id === other.id)).toBe(false);
  });

  it('a record without a new image, or with a run image lacking its history, is unreadable', async () => {
    const { history: _history, ...broken } = runItem(newRunFor('ae_01JD8Z6X4Q2T9V3N5M7K1H0G8H'));
    const o = outbox();
    const handler = forEachStreamBatch('automation-outbox', runWrites, async (decoded) => relayChanges(o.deps, decoded));
    const noImage = streamRecord('INSERT', {});
    expect(await handler({ Records: [noImage] })).toEqual({ batchItemFailures: [{ itemIdentifier: noImage.dynamodb!.SequenceNumber }] });
    const lacking = inserted(broken);
    expect(await handler({ Records: [lacking] })).toEqual({ batchItemFailures: [{ itemIdentifier: lacking.dynamodb!.SequenceNumber }] });
    expect(o.messages).toEqual([]);
    expect(o.published).toEqual([]);
  });

  it('when the queue refuses the batch the call rejects (the event source retries it whole)', async () => {
    const { insert } = await transitions();
    const refused = new Error('SQS unavailable');
    const o = outbox({ failEnqueue: refused });
    await expect(relayRuns(o.deps, [insert])).rejects.toBe(refused);
    expect(o.published).toEqual([]);
  });
});
