/**
 * POST /events' use case (acceptEvent) over in-memory automations, runs (fake-runs.ts) and idempotency
 * records: starts, resumes and cancels; the Idempotency-Key (replay, conflict, a crashed first request's
 * pending record); who may send events.
 */
import type { Account } from '#shared/domain/accounts/account';
import type { Automation, Step } from '#shared/domain/automations/automation';
import { eventRequestSchema } from '#shared/domain/automations/event-request';
import { newRun, runIdFor } from '#shared/domain/automations/run';
import { AppError, ConflictError, ForbiddenError } from '#shared/domain/errors';
import type { Idempotency } from '#shared/domain/emails/idempotency';
import type { IdempotencyRecord } from '#shared/adapters/store/idempotency';
import type { Principal } from '#shared/usecases/access/principal';
import {
  acceptEvent,
  type AcceptEventDeps,
  type AcceptEventResponse,
  type CustomEvent,
} from '#shared/usecases/automations/runs/accept-event';
import { FakeRuns } from './fake-runs';

const START = Date.parse('2026-11-23T10:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();

const account: Account = {
  id: 'acc_1',
  email: 'owner@acme.test',
  plan: 'pro',
  payment_method: true,
  tenants_enabled: true,
  created_at: iso(START - 86_400_000),
  updated_at: iso(START - 86_400_000),
};

function principal(over: Partial<Principal['credential']> = {}): Principal {
  return { account, credential: { kind: 'api_key', id: 'key_1', scopes: ['emails:send'], tenant: null, allowed_domains: null, ...over } };
}

let seq = 0;
function automation(trigger: string, steps: Step[], over: Partial<Automation> = {}): Automation {
  seq++;
  return {
    id: `auto_01JD8Z6X4Q2T9V3N5M7K1H0G${String(seq).padStart(2, '0')}`,
    account_id: 'acc_1',
    name: `Automation ${seq}`,
    status: 'active',
    trigger: { event: trigger, cancel_on_events: [] },
    steps,
    version: 1,
    created_at: iso(START - 1000),
    updated_at: iso(START - 1000),
    activated_at: iso(START - 1000),
    allowed_domains: null,
    ...over,
  };
}

const send = (key: string) =>
  ({ key, type: 'send_email', to: ['{{event.email}}'], from: 'hello@acme.test', subject: 'Hi', text: 'Hello' }) as Step;
const waitFor = (key: string, event: string) => ({ key, type: 'wait_for_event', event, timeout: '7 days', on_timeout: 'end' }) as Step;

type IdempotencyPort = AcceptEventDeps['idempotency'];

class FakeIdempotency implements IdempotencyPort {
  readonly records = new Map<string, IdempotencyRecord>();
  async get(accountId: string, key: string): Promise<IdempotencyRecord | null> {
    const found = this.records.get(`${accountId}\u0000${key}`);
    return found ? structuredClone(found) : null;
  }
  async put(accountId: string, key: string, record: IdempotencyRecord): Promise<boolean> {
    if (this.records.has(`${accountId}\u0000${key}`)) return false;
    this.records.set(`${accountId}\u0000${key}`, structuredClone(record));
    return true;
  }
  async replace(accountId: string, key: string, record: IdempotencyRecord): Promise<void> {
    this.records.set(`${accountId}\u0000${key}`, structuredClone(record));
  }
}

function world(automations: Automation[]) {
  let now = START;
  const runs = new FakeRuns();
  const idempotency = new FakeIdempotency();
  const deps: AcceptEventDeps = {
    automations: {
      activeByTrigger: async (accountId, event) =>
        automations
          .filter((a) => a.account_id === accountId && a.status === 'active' && a.trigger.event === event)
          .map((a) => structuredClone(a)),
      activeByCancelEvent: async (accountId, event) =>
        automations
          .filter((a) => a.account_id === accountId && a.status === 'active' && a.trigger.cancel_on_events.includes(event))
          .map((a) => structuredClone(a)),
      get: async (accountId, id) => structuredClone(automations.find((a) => a.account_id === accountId && a.id === id) ?? null),
    },
    runs,
    idempotency,
    publishedTemplates: { getPublished: async () => ({ kind: 'not_found' }) },
    clock: { now: () => new Date(now) },
  };
  const park = async (runId: string, waitingFor: string) => {
    const claim = await runs.claimStep(runId, 0, now, 45_000, iso(now));
    if (claim.kind !== 'claimed') throw new Error('not claimable');
    await runs.waitStep(runId, 0, claim.run.attempt, now + 7 * 86_400_000, waitingFor, iso(now));
  };
  return {
    deps,
    runs,
    idempotency,
    at: (ms: number) => {
      now = ms;
    },
    send: async (body: Record<string, unknown>, options: { principal?: Principal; idempotency?: Idempotency } = {}) =>
      (await acceptEvent(
        deps,
        options.principal ?? principal(),
        eventRequestSchema.parse(body),
        options.idempotency,
      )) as AcceptEventResponse,
    /** The same call, answered as it is (a dry run's trace for a session). */
    post: (body: Record<string, unknown>, options: { principal?: Principal; idempotency?: Idempotency } = {}) =>
      acceptEvent(deps, options.principal ?? principal(), eventRequestSchema.parse(body), options.idempotency),
    /** Moves the run's first step (a wait_for_event) to waiting, as the worker would. */
    park,
    /** Sends `body`, which starts a run of `automation`, and parks that run waiting for `waitingFor`: its id. */
    startParked: async (automation: Automation, body: Record<string, unknown>, waitingFor = 'user.upgraded') => {
      const started = (await acceptEvent(deps, principal(), eventRequestSchema.parse(body))) as AcceptEventResponse;
      const runId = runIdFor(automation.id, started.event.id, Date.parse(started.event.created_at));
      await park(runId, waitingFor);
      return runId;
    },
  };
}

describe('acceptEvent: starts', () => {
  it('starts one run per active automation the event triggers, with the event copied, and answers the event', async () => {
    const a = automation('user.created', [send('welcome')]);
    const b = automation('user.created', [waitFor('upgraded', 'user.upgraded'), send('thanks')], {
      version: 4,
      allowed_domains: ['acme.test'],
    });
    const other = automation('user.deleted', [send('bye')]);
    const paused = automation('user.created', [send('welcome')], { status: 'paused' });
    const w = world([a, b, other, paused]);
    const response = await w.send({
      name: 'user.created',
      user_id: '42',
      email: 'Ada@Example.com',
      data: { plan: 'pro', first_name: 'Ada' },
    });

    const event: CustomEvent = {
      id: response.event.id,
      name: 'user.created',
      user_id: '42',
      email: 'ada@example.com',
      data: { plan: 'pro', first_name: 'Ada' },
      source: 'api',
      created_at: iso(START),
    };
    expect(response).toEqual({ event, matched_automations: 2, resumed_runs: 0, cancelled_runs: 0 });
    expect(response.event.id).toMatch(/^ae_[0-9A-HJKMNP-TV-Z]{26}$/);

    const runs = [...w.runs.items.values()].sort((x, y) => x.automation_id.localeCompare(y.automation_id));
    expect(runs.map((run) => run.automation_id)).toEqual([a.id, b.id]);
    const runEvent = {
      id: event.id,
      name: 'user.created',
      user_id: '42',
      email: 'ada@example.com',
      data: { plan: 'pro', first_name: 'Ada' },
      created_at: iso(START),
    };
    expect(runs[0]).toMatchObject({
      id: runIdFor(a.id, event.id, START),
      account_id: 'acc_1',
      automation_name: a.name,
      automation_version: 1,
      steps: a.steps,
      event: runEvent,
      subject: 'user:42',
      status: 'running',
      step_index: 0,
      step_state: 'pending',
      allowed_domains: null,
    });
    // Each run keeps its automation's reach with its steps (whoever posts the event).
    expect(runs[1]).toMatchObject({
      id: runIdFor(b.id, event.id, START),
      automation_version: 4,
      steps: b.steps,
      event: runEvent,
      subject: 'user:42',
      allowed_domains: ['acme.test'],
    });
  });

  it('an email-only event starts runs about that email; an event naming nobody starts runs about nobody', async () => {
    const a = automation('user.created', [send('welcome')]);
    const w = world([a]);
    await w.send({ name: 'user.created', email: 'ada@example.com' });
    await w.send({ type: 'user.created' });
    expect([...w.runs.items.values()].map((run) => run.subject).sort()).toEqual(['email:ada@example.com', null].sort());
  });

  it('an event no automation uses matches nothing', async () => {
    const w = world([automation('user.created', [send('welcome')])]);
    expect(await w.send({ name: 'user.visited', user_id: '42' })).toMatchObject({
      matched_automations: 0,
      resumed_runs: 0,
      cancelled_runs: 0,
    });
    expect(w.runs.items.size).toBe(0);
  });
});

describe('acceptEvent: resumes', () => {
  const waiting = () => automation('user.created', [waitFor('upgraded', 'user.upgraded'), send('thanks')]);

  it("resumes the same user's run waiting for the event: the next step pending, the event in the result", async () => {
    const auto = waiting();
    const w = world([auto]);
    const runId = await w.startParked(auto, { name: 'user.created', user_id: '42', email: 'ada@example.com' });

    w.at(START + 60_000);
    const second = await w.send({ name: 'user.upgraded', user_id: '42' });
    expect(second).toMatchObject({ matched_automations: 0, resumed_runs: 1, cancelled_runs: 0 });
    const run = w.runs.run(runId);
    expect(run).toMatchObject({ status: 'running', step_index: 1, step_state: 'pending', waiting_for: null, wake_at: null });
    expect(run.history).toEqual([
      {
        index: 0,
        key: 'upgraded',
        type: 'wait_for_event',
        status: 'completed',
        started_at: iso(START),
        completed_at: iso(START + 60_000),
        output: { event: 'user.upgraded', event_id: second.event.id, timed_out: false },
        error: null,
      },
    ]);

    // The same event again finds nothing waiting.
    expect(await w.send({ name: 'user.upgraded', user_id: '42' })).toMatchObject({ resumed_runs: 0 });
  });

  it('cancels (does not resume) a waiting run whose automation was paused since it started', async () => {
    const auto = waiting();
    const w = world([auto]);
    const runId = await w.startParked(auto, { name: 'user.created', user_id: '7' });
    auto.status = 'paused';
    const second = await w.send({ name: 'user.upgraded', user_id: '7' });
    expect(second).toMatchObject({ resumed_runs: 0 });
    expect(w.runs.run(runId)).toMatchObject({ status: 'cancelled', history: [] });
  });

  it('resumes by email a run started by an email-only event (also from an event that carries a user_id too)', async () => {
    const auto = waiting();
    const w = world([auto]);
    const runId = await w.startParked(auto, { name: 'user.created', email: 'ada@example.com' });
    expect(await w.send({ name: 'user.upgraded', user_id: '99', email: 'ADA@example.com' })).toMatchObject({ resumed_runs: 1 });
    expect(w.runs.run(runId)).toMatchObject({ step_index: 1, step_state: 'pending' });
  });

  it('does not resume by email a run started with a user_id', async () => {
    const auto = waiting();
    const w = world([auto]);
    const runId = await w.startParked(auto, { name: 'user.created', user_id: '42', email: 'ada@example.com' });
    expect(await w.send({ name: 'user.upgraded', email: 'ada@example.com' })).toMatchObject({ resumed_runs: 0 });
    expect(w.runs.run(runId)).toMatchObject({ step_index: 0, step_state: 'waiting' });
  });

  it("does not resume a run waiting for another event, nor another user's run, nor from an event naming nobody", async () => {
    const auto = waiting();
    const w = world([auto]);
    const runId = await w.startParked(auto, { name: 'user.created', user_id: '42' });
    expect(await w.send({ name: 'user.downgraded', user_id: '42' })).toMatchObject({ resumed_runs: 0 });
    expect(await w.send({ name: 'user.upgraded', user_id: '43' })).toMatchObject({ resumed_runs: 0 });
    expect(await w.send({ name: 'user.upgraded' })).toMatchObject({ resumed_runs: 0 });
    expect(w.runs.run(runId)).toMatchObject({
      status: 'running',
      step_index: 0,
      step_state: 'waiting',
      waiting_for: 'user.upgraded',
      history: [],
    });
  });

  it('does not resume a run that is not waiting yet (its wait step still pending)', async () => {
    const auto = waiting();
    const w = world([auto]);
    const first = await w.send({ name: 'user.created', user_id: '42' });
    expect(await w.send({ name: 'user.upgraded', user_id: '42' })).toMatchObject({ resumed_runs: 0 });
    expect(w.runs.run(runIdFor(auto.id, first.event.id, START))).toMatchObject({ step_index: 0, step_state: 'pending' });
  });
});

describe('acceptEvent: cancels', () => {
  it("cancels the user's running runs of automations listing the event in cancel_on_events, and does not resume them", async () => {
    const cancellable = automation('user.created', [waitFor('gone', 'user.deleted'), send('after')], {
      trigger: { event: 'user.created', cancel_on_events: ['user.deleted'] },
    });
    const keeps = automation('user.created', [waitFor('gone', 'user.deleted'), send('after')]);
    const w = world([cancellable, keeps]);
    const first = await w.send({ name: 'user.created', user_id: '42' });
    const cancelledId = runIdFor(cancellable.id, first.event.id, START);
    const resumedId = runIdFor(keeps.id, first.event.id, START);
    await w.park(cancelledId, 'user.deleted');
    await w.park(resumedId, 'user.deleted');
    const otherUser = await w.send({ name: 'user.created', user_id: '43' });

    w.at(START + 5000);
    const response = await w.send({ name: 'user.deleted', user_id: '42' });
    expect(response).toMatchObject({ matched_automations: 0, resumed_runs: 1, cancelled_runs: 1 });
    expect(w.runs.run(cancelledId)).toMatchObject({
      status: 'cancelled',
      error: `cancelled by event user.deleted (${response.event.id})`,
      ended_at: iso(START + 5000),
      history: [],
    });
    expect(w.runs.run(resumedId)).toMatchObject({ status: 'running', step_index: 1, step_state: 'pending' });
    // Another user's run of the cancelling automation is untouched.
    expect(w.runs.run(runIdFor(cancellable.id, otherUser.event.id, START))).toMatchObject({ status: 'running', step_state: 'pending' });
    // Again: nothing left to cancel.
    expect(await w.send({ name: 'user.deleted', user_id: '42' })).toMatchObject({ cancelled_runs: 0, resumed_runs: 0 });
  });

  it('cancels a run at any state (pending, claimed) of the user', async () => {
    const auto = automation('user.created', [send('welcome'), send('again')], {
      trigger: { event: 'user.created', cancel_on_events: ['user.deleted', 'user.banned'] },
    });
    const w = world([auto]);
    const a = await w.send({ name: 'user.created', user_id: '42' });
    w.at(START + 1);
    const b = await w.send({ name: 'user.created', user_id: '42' });
    const claimedId = runIdFor(auto.id, b.event.id, START + 1);
    await w.runs.claimStep(claimedId, 0, START + 1, 45_000, iso(START + 1));
    expect(await w.send({ name: 'user.banned', user_id: '42' })).toMatchObject({ cancelled_runs: 2 });
    expect(w.runs.run(runIdFor(auto.id, a.event.id, START))).toMatchObject({ status: 'cancelled' });
    expect(w.runs.run(claimedId)).toMatchObject({ status: 'cancelled', lease_until: null });
  });
});

describe('acceptEvent: Idempotency-Key', () => {
  const key = (fingerprint = 'fp-1'): Idempotency => ({ key: 'signup-42', fingerprint });

  it('a retry with the same key and body replays the answer (same event) and starts nothing new', async () => {
    const auto = automation('user.created', [send('welcome')]);
    const w = world([auto]);
    const first = await w.send({ name: 'user.created', user_id: '42' }, { idempotency: key() });
    expect(w.idempotency.records.get('acc_1\u0000signup-42')).toEqual({
      fingerprint: 'fp-1',
      status: 202,
      body: first,
      created_at: iso(START),
    });

    w.at(START + 10_000);
    const again = await w.send({ name: 'user.created', user_id: '42' }, { idempotency: key() });
    expect(again).toEqual(first);
    expect(w.runs.items.size).toBe(1);
    expect(w.runs.starts).toEqual([runIdFor(auto.id, first.event.id, START)]);
  });

  it('the same key with another body is a 409 idempotency_conflict', async () => {
    const w = world([automation('user.created', [send('welcome')])]);
    await w.send({ name: 'user.created', user_id: '42' }, { idempotency: key() });
    w.at(START + 10_000);
    const refused = w.send({ name: 'user.created', user_id: '43' }, { idempotency: key('fp-2') });
    await expect(refused).rejects.toBeInstanceOf(ConflictError);
    await expect(refused).rejects.toMatchObject({
      status: 409,
      code: 'idempotency_conflict',
      details: { idempotency_key: 'signup-42', first_used_at: iso(START) },
    });
    expect(w.runs.items.size).toBe(1);
  });

  it('a pending record left by a crashed first request is reused: its event, runs not started twice, the answer stored', async () => {
    const auto = automation('user.created', [send('welcome')]);
    const w = world([auto]);
    const crashed: CustomEvent = {
      id: 'ae_01JD8Z6X4Q2T9V3N5M7K1H0G8F',
      name: 'user.created',
      user_id: '42',
      email: null,
      data: {},
      source: 'api',
      created_at: iso(START),
    };
    await w.idempotency.put('acc_1', 'signup-42', { fingerprint: 'fp-1', status: 0, body: { event: crashed }, created_at: iso(START) });
    // The crashed request had started its run before dying.
    await w.runs.start(
      newRun({
        automation: auto,
        event: { id: crashed.id, name: crashed.name, user_id: '42', email: null, data: {}, created_at: crashed.created_at },
        subject: 'user:42',
        now: new Date(START),
      }),
    );

    w.at(START + 30_000);
    const response = await w.send({ name: 'user.created', user_id: '42' }, { idempotency: key() });
    expect(response.event).toEqual(crashed);
    expect(response.matched_automations).toBe(1);
    expect(w.runs.items.size).toBe(1);
    expect([...w.runs.items.keys()]).toEqual([runIdFor(auto.id, crashed.id, START)]);
    expect(w.runs.stream.filter((record) => record.eventName === 'INSERT')).toHaveLength(1);
    expect(w.idempotency.records.get('acc_1\u0000signup-42')).toEqual({
      fingerprint: 'fp-1',
      status: 202,
      body: response,
      created_at: iso(START),
    });
  });

  it('without a key, each request is a new event (and new runs)', async () => {
    const w = world([automation('user.created', [send('welcome')])]);
    const a = await w.send({ name: 'user.created', user_id: '42' });
    const b = await w.send({ name: 'user.created', user_id: '42' });
    expect(a.event.id).not.toBe(b.event.id);
    expect(w.runs.items.size).toBe(2);
    expect(w.idempotency.records.size).toBe(0);
  });
});

describe('acceptEvent: who may send events', () => {
  async function refused(promise: Promise<unknown>): Promise<AppError> {
    try {
      await promise;
    } catch (error) {
      if (error instanceof AppError) return error;
      throw error;
    }
    throw new Error('expected a refusal');
  }

  it('dry_run with automation_id is refused to API keys (403), before anything is written', async () => {
    const w = world([automation('user.created', [send('welcome')])]);
    const error = await refused(
      w.send(
        { name: 'user.created', user_id: '42', dry_run: true, automation_id: 'auto_01JD8Z6X4Q2T9V3N5M7K1H0G8F' },
        { idempotency: { key: 'k', fingerprint: 'f' } },
      ),
    );
    expect(error).toBeInstanceOf(ForbiddenError);
    expect(error).toMatchObject({ status: 403, code: 'forbidden' });
    expect(w.runs.items.size).toBe(0);
    expect(w.idempotency.records.size).toBe(0);
  });

  it('a dashboard session dry-runs the named automation (any status), writing nothing, Idempotency-Key ignored', async () => {
    const draft = automation('user.created', [send('welcome')], { status: 'draft' });
    const w = world([draft]);
    const session = principal({ kind: 'session', id: 'usr_1', scopes: ['full'] });
    const result = await w.post(
      { name: 'user.created', email: 'ada@example.com', dry_run: true, automation_id: draft.id },
      { principal: session, idempotency: { key: 'k', fingerprint: 'f' } },
    );
    expect(result).toMatchObject({
      dry_run: true,
      automation: { id: draft.id, status: 'draft' },
      matches_trigger: true,
      status: 'completed',
      steps: [{ key: 'welcome', status: 'stubbed', output: { to: ['ada@example.com'] } }],
    });
    expect(w.runs.items.size).toBe(0);
    expect(w.idempotency.records.size).toBe(0);
    const error = await refused(
      w.post({ name: 'user.created', dry_run: true, automation_id: 'auto_01JD8Z6X4Q2T9V3N5M7K1H0G8F' }, { principal: session }),
    );
    expect(error).toMatchObject({ status: 404, code: 'not_found' });
  });

  it('a dashboard session without dry_run posts a normal event', async () => {
    const w = world([automation('user.created', [send('welcome')])]);
    const result = await w.send(
      { name: 'user.created', user_id: '42' },
      { principal: principal({ kind: 'session', id: 'usr_1', scopes: ['full'] }) },
    );
    expect(result).toMatchObject({ matched_automations: 1 });
    expect(w.runs.items.size).toBe(1);
  });

  it('a key limited to a tenant is refused (403 forbidden)', async () => {
    const w = world([automation('user.created', [send('welcome')])]);
    const error = await refused(
      w.send({ name: 'user.created', user_id: '42' }, { principal: principal({ tenant: 'ten_1', scopes: ['full'] }) }),
    );
    expect(error).toBeInstanceOf(ForbiddenError);
    expect(error).toMatchObject({ status: 403, code: 'forbidden' });
    expect(w.runs.items.size).toBe(0);
  });

  it('a key without emails:send or full is refused (403 insufficient_scope); full is enough', async () => {
    const w = world([automation('user.created', [send('welcome')])]);
    const error = await refused(
      w.send({ name: 'user.created', user_id: '42' }, { principal: principal({ scopes: ['account:read', 'templates:write'] }) }),
    );
    expect(error).toMatchObject({ status: 403, code: 'insufficient_scope' });
    expect(w.runs.items.size).toBe(0);
    expect(await w.send({ name: 'user.created', user_id: '42' }, { principal: principal({ scopes: ['full'] }) })).toMatchObject({
      matched_automations: 1,
    });
  });
});
