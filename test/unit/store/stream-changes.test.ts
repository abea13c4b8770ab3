/**
 * The stream readers (shared/adapters/store/*-changes.ts): each change kind from a real-shaped stream record (items
 * marshalled as the table's stream carries them), records of no interest decoding to nothing, and a
 * malformed record stopping the batch or skipped, as its reader says.
 */
import type { DynamoDBRecord } from 'aws-lambda';
import { newRun } from '#shared/domain/automations/run';
import { usageCounterId } from '#shared/adapters/store/deferred-usage';
import { emailAcceptances } from '#shared/adapters/store/email-acceptance-changes';
import { runWrites } from '#shared/adapters/store/run-changes';
import { keys } from '#shared/adapters/store/keys';
import type { StreamChange, StreamChangeKind } from '#shared/adapters/store/stream-changes';
import { decodeStreamRecord, type StreamReader } from '#shared/adapters/store/stream-record';
import { emailStatsWrites } from '#shared/adapters/store/email-stats-changes';
import { accountStatusChanges, statusChanges } from '#shared/adapters/store/account-status-changes';
import { tenantStatusChanges } from '#shared/adapters/store/tenant-status-changes';
import { changesOf, emailItem, inserted, modified, removed, streamRecord } from '../../support/stream-records';
import { runItem } from '../automations/fake-runs';

const AT = '2026-11-22T10:00:00.000Z';

const email = (fields: Record<string, unknown> = {}) =>
  emailItem('msg_1', { account_id: 'acc_1', last_event: 'queued', created_at: AT, ...fields });

// Where an email accepted today names its counters (their own partitions: keys.usage).
const usage = {
  account_id: 'acc_1',
  count: 2,
  entries: [
    { key: keys.usage('acc_1', 'PLAN', 'DAY', '2026-11-22'), expiresAt: 1_900_000_000 },
    { key: keys.usage('acc_1', 'PLAN', 'MONTH', '2026-11'), expiresAt: 1_900_000_100 },
  ],
};
// Where an email accepted before 2026-11-25 names them (the account's partition): still counted.
const legacyUsage = {
  ...usage,
  entries: [
    { key: { PK: 'ACCOUNT#acc_1', SK: 'USAGE#PLAN#DAY#2026-11-22' }, expiresAt: 1_900_000_000 },
    { key: { PK: 'ACCOUNT#acc_1', SK: 'USAGE#PLAN#MONTH#2026-11' }, expiresAt: 1_900_000_100 },
  ],
};

const tenant = {
  PK: 'TENANT#acc_1#acme',
  SK: 'TENANT',
  type: 'tenant',
  id: 'ten_1',
  account_id: 'acc_1',
  external_id: 'acme',
  name: 'Acme',
  status: 'active',
  paused_reason: null,
  paused_at: null,
  pause_source: null,
  created_at: AT,
  updated_at: AT,
};
const paused = {
  ...tenant,
  status: 'paused',
  paused_reason: 'bounces',
  paused_at: '2026-11-22T11:00:00.000Z',
  pause_source: 'automated',
  updated_at: '2026-11-22T11:00:00.000Z',
};

const account = {
  PK: 'ACCOUNT#acc_1',
  SK: 'ACCOUNT',
  type: 'account',
  id: 'acc_1',
  email: 'o@x.test',
  plan: 'pro',
  payment_method: true,
  tenants_enabled: true,
  created_at: AT,
  updated_at: AT,
};
const figures = { sent: 10, bounced: 5, complained: 0, bounce_rate: 0.5, complaint_rate: 0 };
const pausedAccount = {
  ...account,
  status: 'paused',
  paused_reason: 'Reputation brake: ...',
  paused_at: '2026-11-22T11:00:00.000Z',
  pause_source: 'automated',
  pause_figures: { rule: 'deployment_brake', metric: 'bounce', threshold: 0.04, window_days: 2, account: figures, deployment: figures },
  updated_at: '2026-11-22T11:00:00.000Z',
};

const run = newRun({
  automation: {
    id: 'auto_1',
    account_id: 'acc_1',
    name: 'Welcome',
    version: 1,
    allowed_domains: null,
    steps: [{ key: 'wait', type: 'delay', duration: '1 day' }] as never,
  },
  event: { id: 'ae_1', name: 'user.created', user_id: '42', email: null, data: {}, created_at: AT },
  subject: 'user:42',
  now: new Date(AT),
});
const claimed = { ...run, step_state: 'claimed' as const, attempt: 1, lease_until: 1, step_started_at: AT };

const kinds = (changes: readonly StreamChange[]) => changes.map((change) => change.kind);

/** Why the record is malformed, and whether the batch goes on past it (the reader's word). */
function malformed<C>(reader: StreamReader<C>, record: DynamoDBRecord) {
  const decoded = decodeStreamRecord(record, reader);
  return { reason: decoded.malformed?.reason, keys: decoded.malformed?.keys, skipped: decoded.record !== undefined };
}

describe('the stream readers', () => {
  // Every kind is decoded from a record below (a new kind fails to compile until it is).
  const decoded: Record<StreamChangeKind, () => StreamChange[]> = {
    email_queued: () => changesOf(emailAcceptances, inserted(email())),
    email_scheduled: () => changesOf(emailAcceptances, inserted(email({ status: 'scheduled', scheduled_at: '2026-11-23T00:00:00.000Z' }))),
    email_suppressed: () =>
      changesOf(
        emailAcceptances,
        inserted(email({ status: 'failed', last_event: 'suppressed', suppressed_event: { suppressed: ['r@y.test'] } })),
      ),
    usage_deferred: () => changesOf(emailAcceptances, inserted(email({ status: 'scheduled', usage_deferred: usage }))).slice(1),
    email_accepted: () => changesOf(emailStatsWrites, inserted(email({ tenant_id: 'ten_1' }))),
    email_progressed: () => changesOf(emailStatsWrites, modified(email(), email({ status: 'sent', sent_at: AT }))),
    account_paused: () => changesOf(accountStatusChanges, modified(account, pausedAccount)),
    account_resumed: () => changesOf(accountStatusChanges, modified(pausedAccount, { ...account, updated_at: '2026-11-22T12:00:00.000Z' })),
    tenant_paused: () => changesOf(tenantStatusChanges, modified(tenant, paused)),
    tenant_resumed: () => changesOf(tenantStatusChanges, modified(paused, tenant)),
    run_started: () => changesOf(runWrites, inserted(runItem(run))).slice(0, 1),
    run_changed: () => changesOf(runWrites, modified(runItem(run), runItem(claimed))),
    run_step_pending: () => changesOf(runWrites, inserted(runItem(run))).slice(1),
  };

  it.each(Object.keys(decoded) as StreamChangeKind[])('%s', (kind) => {
    expect(kinds(decoded[kind]())).toEqual([kind]);
  });

  it('an accepted email: its id, its email for the events, its usage as increments per counter', () => {
    expect(changesOf(emailAcceptances, inserted(email({ usage_deferred: usage })))).toEqual([
      { kind: 'email_queued', email_id: 'msg_1' },
      {
        kind: 'usage_deferred',
        increments: [
          { counter: usageCounterId(usage.entries[0]!.key), count: 2, expiresAt: 1_900_000_000 },
          { counter: usageCounterId(usage.entries[1]!.key), count: 2, expiresAt: 1_900_000_100 },
        ],
      },
    ]);
    expect(changesOf(emailAcceptances, inserted(email({ usage_deferred: legacyUsage }))).at(-1)).toEqual({
      kind: 'usage_deferred',
      increments: legacyUsage.entries.map((entry) => ({ counter: usageCounterId(entry.key), count: 2, expiresAt: entry.expiresAt })),
    });
    const [scheduled] = changesOf(emailAcceptances, inserted(email({ status: 'scheduled', scheduled_at: '2026-11-23T00:00:00.000Z' })));
    expect(scheduled).toMatchObject({
      kind: 'email_scheduled',
      email: { id: 'msg_1', status: 'scheduled', scheduled_at: '2026-11-23T00:00:00.000Z', sent_at: null },
    });
    expect(scheduled).not.toHaveProperty('email.PK');
    const [suppressed] = changesOf(
      emailAcceptances,
      inserted(email({ status: 'failed', suppressed_event: { suppressed: ['r@y.test'], reason: 'suppressed' } })),
    );
    expect(suppressed).toMatchObject({
      kind: 'email_suppressed',
      email: { id: 'msg_1' },
      details: { suppressed: ['r@y.test'], reason: 'suppressed' },
    });
  });

  it('the relay reads INSERTed emails only: a MODIFY, a refused email without an event, other items are nothing', () => {
    expect(changesOf(emailAcceptances, modified(email(), email({ status: 'sent' })))).toEqual([]);
    expect(changesOf(emailAcceptances, inserted(email({ status: 'failed' })))).toEqual([]);
    expect(changesOf(emailAcceptances, inserted({ PK: 'ACCOUNT#x', SK: 'COUNTER#DOMAINS', type: 'counter' }))).toEqual([]);
    expect(changesOf(emailAcceptances, removed(email()))).toEqual([]);
  });

  it('an email the relay cannot read stops the batch: no id, malformed usage, counters not its account usage', () => {
    expect(malformed(emailAcceptances, inserted(email({ id: '' })))).toEqual({
      reason: 'id: an email item without an id',
      keys: 'EMAIL#msg_1 / EMAIL',
      skipped: false,
    });
    expect(malformed(emailAcceptances, inserted(email({ usage_deferred: { ...usage, count: 0 } })))).toMatchObject({
      reason: expect.stringContaining('usage_deferred.count'),
      skipped: false,
    });
    expect(malformed(emailAcceptances, inserted(email({ usage_deferred: null })))).toMatchObject({
      reason: expect.stringContaining('usage_deferred'),
      skipped: false,
    });
    const foreign = { ...usage, entries: [{ key: { PK: 'ACCOUNT#someone-else', SK: 'USAGE#PLAN#DAY#2026-11-22' }, expiresAt: 1 }] };
    expect(malformed(emailAcceptances, inserted(email({ usage_deferred: foreign })))).toMatchObject({
      reason: "usage_deferred.entries.0.key: not one of the account's usage counters",
      skipped: false,
    });
    const notUsage = { ...usage, entries: [{ key: { PK: 'ACCOUNT#acc_1', SK: 'APIKEY#key_1' }, expiresAt: 1 }] };
    expect(malformed(emailAcceptances, inserted(email({ usage_deferred: notUsage })))).toMatchObject({ skipped: false });
    // Another account's counter in the new layout, and a capped counter's shard (its limit is the transaction's).
    for (const key of [
      keys.usage('acc_2', 'PLAN', 'DAY', '2026-11-22'),
      keys.usageShard('acc_1', 'PLAN', 'DAY', '2026-11-22', 3),
      { PK: 'USAGE#acc_1#PLAN#DAY#x\u0000y', SK: 'COUNTER' },
    ]) {
      expect(
        malformed(emailAcceptances, inserted(email({ usage_deferred: { ...usage, entries: [{ key, expiresAt: 1 }] } }))),
      ).toMatchObject({ reason: "usage_deferred.entries.0.key: not one of the account's usage counters", skipped: false });
    }
  });

  it('an email: its milestones before and after (absent, NULL and empty are not reached yet)', () => {
    const before = email({ tenant_id: 'ten_1', sent_at: AT, delivered_at: null, opened_at: '' });
    const after = email({
      tenant_id: 'ten_1',
      status: 'delivered',
      last_event: 'complained',
      sent_at: AT,
      delivered_at: AT,
      opened_at: AT,
      clicked_at: AT,
    });
    expect(changesOf(emailStatsWrites, modified(before, after))).toEqual([
      {
        kind: 'email_progressed',
        account_id: 'acc_1',
        tenant_id: 'ten_1',
        created_at: AT,
        before: { status: 'queued', last_event: 'queued', sent: true, delivered: false, opened: false, clicked: false, suppressed: false },
        after: {
          status: 'delivered',
          last_event: 'complained',
          sent: true,
          delivered: true,
          opened: true,
          clicked: true,
          suppressed: false,
        },
      },
    ]);
  });

  it('the day stats read every email (a tenant of none: null), nothing else, and skip one they cannot count', () => {
    expect(changesOf(emailStatsWrites, inserted(email()))).toMatchObject([
      { kind: 'email_accepted', account_id: 'acc_1', tenant_id: null },
    ]);
    expect(changesOf(emailStatsWrites, inserted(email({ tenant_id: null })))).toMatchObject([{ kind: 'email_accepted', tenant_id: null }]);
    expect(changesOf(emailStatsWrites, removed(email({ tenant_id: 'ten_1' })))).toEqual([]);
    expect(changesOf(emailStatsWrites, modified(undefined, email({ tenant_id: 'ten_1', sent_at: AT })))).toEqual([]);
    expect(changesOf(emailStatsWrites, inserted({ ...tenant, tenant_id: 'ten_1' }))).toEqual([]);
    expect(malformed(emailStatsWrites, inserted(email({ tenant_id: 'ten_1', created_at: 7 })))).toEqual({
      reason: expect.stringContaining('created_at'),
      keys: 'EMAIL#msg_1 / EMAIL',
      skipped: true,
    });
    expect(malformed(emailStatsWrites, inserted(email({ account_id: 7 })))).toMatchObject({
      reason: expect.stringContaining('account_id'),
      skipped: true,
    });
  });

  it('an account whose status moved (absent is active): the account as its events carry it; the tenant-events reader reads both', () => {
    const {
      PK: _pk,
      SK: _sk,
      type: _type,
      created_at: _created,
      email: _email,
      plan: _plan,
      payment_method: _pm,
      tenants_enabled: _te,
      ...fields
    } = pausedAccount;
    expect(changesOf(accountStatusChanges, modified(account, pausedAccount))).toEqual([{ kind: 'account_paused', account: fields }]);
    expect(changesOf(accountStatusChanges, modified({ ...account, status: 'active' }, pausedAccount))).toMatchObject([
      { kind: 'account_paused' },
    ]);
    expect(changesOf(accountStatusChanges, modified(pausedAccount, { ...account, status: 'active' }))).toMatchObject([
      { kind: 'account_resumed', account: { id: 'acc_1', status: 'active' } },
    ]);
    // Not a move of the status: nothing.
    expect(changesOf(accountStatusChanges, modified(account, { ...account, plan: 'scale' }))).toEqual([]);
    expect(changesOf(accountStatusChanges, modified(account, { ...account, status: 'active' }))).toEqual([]);
    expect(changesOf(accountStatusChanges, inserted(pausedAccount))).toEqual([]);
    expect(kinds(changesOf(statusChanges, modified(tenant, paused)))).toEqual(['tenant_paused']);
    expect(kinds(changesOf(statusChanges, modified(account, pausedAccount)))).toEqual(['account_paused']);
  });

  it('a tenant whose status moved: the tenant as its events carry it; other tenant writes are nothing; an unreadable one is skipped', () => {
    const { PK: _pk, SK: _sk, type: _type, created_at: _created, ...fields } = paused;
    expect(changesOf(tenantStatusChanges, modified(tenant, paused))).toEqual([{ kind: 'tenant_paused', tenant: fields }]);
    expect(changesOf(tenantStatusChanges, modified(tenant, { ...tenant, name: 'Renamed' }))).toEqual([]);
    expect(changesOf(tenantStatusChanges, modified(tenant, { ...paused, deleting: true }))).toEqual([]);
    expect(changesOf(tenantStatusChanges, inserted(paused))).toEqual([]);
    expect(changesOf(tenantStatusChanges, modified(undefined, paused))).toEqual([]);
    expect(changesOf(tenantStatusChanges, modified(tenant, { ...tenant, status: 'archived' }))).toEqual([]);
    expect(malformed(tenantStatusChanges, modified(tenant, { ...paused, account_id: undefined }))).toMatchObject({
      reason: expect.stringContaining('account_id'),
      skipped: true,
    });
  });

  it('a run write: started, changed (with both runs), a step left pending; removals are nothing', () => {
    expect(changesOf(runWrites, inserted(runItem(run)))).toEqual([
      { kind: 'run_started', run },
      { kind: 'run_step_pending', run_id: run.id, step_index: 0 },
    ]);
    expect(changesOf(runWrites, modified(runItem(run), runItem(claimed)))).toEqual([{ kind: 'run_changed', before: run, after: claimed }]);
    // Without a readable old image: no run_changed, but the pending step is still handed over.
    expect(kinds(changesOf(runWrites, modified(undefined, runItem(run))))).toEqual(['run_step_pending']);
    expect(kinds(changesOf(runWrites, modified({ type: 'run' }, runItem(run))))).toEqual(['run_step_pending']);
    expect(changesOf(runWrites, removed(runItem(run)))).toEqual([]);
  });

  it('a write the automation outbox cannot read as a run stops the batch', () => {
    expect(malformed(runWrites, modified({ type: 'email', id: 'msg_1' }, { type: 'email', id: 'msg_1' }))).toMatchObject({
      skipped: false,
    });
    expect(malformed(runWrites, streamRecord('INSERT', {}))).toMatchObject({
      reason: expect.stringContaining('a run record without a readable run image'),
      skipped: false,
    });
    const { history: _history, ...broken } = runItem(run);
    expect(malformed(runWrites, inserted(broken))).toMatchObject({ reason: expect.stringContaining('history'), skipped: false });
  });

  it('a record without its envelope (no sequence number, event id or event name), or an image that does not unmarshall, stops any reader', () => {
    const record = inserted(email({ tenant_id: 'ten_1' }));
    expect(malformed(emailStatsWrites, { ...record, eventID: undefined })).toMatchObject({
      reason: expect.stringContaining('eventID'),
      skipped: false,
    });
    expect(malformed(emailStatsWrites, { ...record, dynamodb: { ...record.dynamodb, SequenceNumber: undefined } })).toMatchObject({
      skipped: false,
    });
    expect(malformed(emailStatsWrites, { ...record, eventName: undefined })).toMatchObject({ skipped: false });
    expect(
      malformed(emailStatsWrites, { ...record, dynamodb: { ...record.dynamodb, NewImage: { bad: { X: 'nope' } as never } } }),
    ).toMatchObject({ reason: 'unreadable image: Unsupported type passed: X', keys: 'EMAIL#msg_1 / EMAIL', skipped: false });
  });
});
