/**
 * Stored items become models through their schemas (shared/adapters/store/decode.ts): a well-formed item
 * decodes to its model; an item with a renamed or missing attribute is a StoredItemError naming the
 * model, the key and the path, never a value; and the older shapes the repositories read before the
 * schemas still read as they did (each compared with the cast the repository used before).
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Account } from '#shared/domain/accounts/account';
import type { Email } from '#shared/domain/emails/email';
import type { Run } from '#shared/domain/automations/run';
import type { Tenant } from '#shared/domain/tenants/tenant';
import type { WebhookDelivery } from '#shared/domain/webhooks/delivery';
import { toAccount } from '#shared/adapters/store/accounts';
import { AutomationRepository } from '#shared/adapters/store/automations';
import { StoredItemError } from '#shared/adapters/store/decode';
import { DomainRepository } from '#shared/adapters/store/domains/repository';
import { toStoredEmail } from '#shared/adapters/store/emails/stored-email';
import { ReceivedEmailRepository } from '#shared/adapters/store/received-emails';
import { runFromItem } from '#shared/adapters/store/runs';
import type { Table } from '#shared/adapters/store/table';
import { toStoredTenant } from '#shared/adapters/store/tenants';
import { WebhookDeliveryRepository } from '#shared/adapters/store/webhook-deliveries';

const AT = '2026-11-24T10:00:00.000Z';
const SECRET = 'sealed:v1:SUPERSECRET-9f3c2a71d0b84e6c';

/** A table whose every read answers `item` (what GetItem would), for the repositories' own read paths. */
function tableAnswering(item: Record<string, unknown>): Table {
  const send = async (command: unknown) => {
    if (!(command instanceof GetCommand)) throw new Error('only GetItem is expected');
    return { Item: structuredClone(item) };
  };
  return { client: { send } as never, name: 'test-table' };
}

/** The error `read` throws (the test fails when it throws none, or another kind). */
function storedItemError(read: () => unknown): StoredItemError {
  try {
    read();
  } catch (error) {
    if (error instanceof StoredItemError) return error;
    throw error;
  }
  throw new Error('the item decoded: a StoredItemError was expected');
}

/** Every string and number leaf of an item (what must never reach an error message). */
function leaves(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (typeof value === 'number' || typeof value === 'boolean') return [String(value)];
  if (Array.isArray(value)) return value.flatMap(leaves);
  if (value !== null && typeof value === 'object') return Object.entries(value).flatMap(([key, inner]) => [key, ...leaves(inner)]);
  return [];
}

const accountItem = {
  PK: 'ACCOUNT#acc_1',
  SK: 'ACCOUNT',
  type: 'account',
  id: 'acc_1',
  email: 'owner@acme.test',
  plan: 'pro',
  payment_method: true,
  tenants_enabled: false,
  created_at: AT,
  updated_at: AT,
};

/** An email as the send path writes it: the late attributes (sent_at, bounce_reason, ...) absent, not NULL. */
const emailFields = {
  id: 'msg_01JD8Z6X4Q2T9V3N5M7K1H0G8F',
  account_id: 'acc_1',
  from: 'Acme <hello@acme.test>',
  to: ['ada@example.com'],
  cc: [],
  bcc: [],
  reply_to: [],
  subject: 'Welcome',
  status: 'queued',
  last_event: 'queued',
  tags: [{ name: 'kind', value: 'welcome' }],
  headers: { 'X-Campaign': 'spring' },
  created_at: AT,
  category: 'transactional',
};
const emailItem = {
  PK: `EMAIL#${emailFields.id}`,
  SK: 'EMAIL',
  GSI1PK: 'ACCOUNT#acc_1#EMAILS#0',
  GSI1SK: emailFields.id,
  type: 'email',
  ...emailFields,
  last_event_rank: 0,
  body: { text: 'Hello Ada' },
  schedule_version: 2,
  send_lease_until: 1_800_000_000_000,
  send_attempts: 1,
};

const tenantFields = {
  id: 'ten_01JD8Z6X4Q2T9V3N5M7K1H0G8F',
  account_id: 'acc_1',
  external_id: 'acme',
  name: 'Acme',
  status: 'active',
  paused_reason: null,
  paused_at: null,
  pause_source: null,
  default_from_domain: null,
  stream_policy: 'all',
  daily_limit: 500,
  metadata: { plan: 'gold' },
  created_at: AT,
  updated_at: AT,
};
/** A tenant item of today's layout: its ramp, the TLS twin, the endpoints naming it (a string set). */
const tenantItem = {
  PK: 'TENANT#acc_1#acme',
  SK: 'TENANT',
  GSI1PK: 'ACCOUNT#acc_1#TENANTS',
  GSI1SK: tenantFields.id,
  type: 'tenant',
  ...tenantFields,
  ramp_stage: 2,
  ramp_day: '2026-11-23',
  ses_tls_twin: true,
  webhook_ids: new Set(['wh_1']),
};

const runFields: Run = {
  id: 'run_01JD8Z6X4Q2T9V3N5M7K1H0G8F',
  account_id: 'acc_1',
  automation_id: 'auto_1',
  automation_name: 'Welcome series',
  automation_version: 3,
  steps: [
    {
      key: 'hello',
      type: 'send_email',
      to: ['{{event.email}}'],
      from: 'hello@acme.test',
      subject: 'Hi',
      text: 'Hello',
      tags: [{ name: 'a', value: 'b' }],
    },
    { key: 'wait', type: 'delay', duration: '1 day' },
    { key: 'opened', type: 'wait_for_event', event: 'email.opened', timeout: '3 days', on_timeout: 'end' },
    {
      key: 'gold',
      type: 'condition',
      all: [{ field: 'event.data.plan', operator: 'eq', value: 'gold' }, { any: [{ field: 'event.email', operator: 'exists' }] }],
    },
    { key: 'big', type: 'condition', field: 'event.data.seats', operator: 'gt', value: 10 },
  ],
  event: { id: 'ae_1', name: 'user.created', user_id: '42', email: 'ada@example.com', data: { plan: 'gold', seats: 12 }, created_at: AT },
  subject: 'user:42',
  status: 'running',
  step_index: 1,
  step_state: 'waiting',
  lease_until: null,
  attempt: 1,
  step_started_at: AT,
  wake_at: '2026-11-25T10:00:00.000Z',
  waiting_for: null,
  history: [
    {
      index: 0,
      key: 'hello',
      type: 'send_email',
      status: 'completed',
      started_at: AT,
      completed_at: AT,
      output: { email_id: 'msg_1' },
      error: null,
    },
  ],
  error: null,
  created_at: AT,
  updated_at: AT,
  ended_at: null,
  allowed_domains: ['acme.test'],
};
/** As the store writes it: the late attributes that are null are absent (RUN_LATE_FIELDS). */
const { lease_until: _lease, waiting_for: _waiting, error: _error, ended_at: _ended, ...runWritten } = runFields;
const runItem = {
  PK: `RUN#${runFields.id}`,
  SK: 'RUN',
  GSI1PK: 'AUTOMATION#auto_1#RUNS',
  GSI1SK: runFields.id,
  type: 'run',
  ...runWritten,
};

const domainItem = {
  PK: 'DOMAIN#dom_1',
  SK: 'DOMAIN',
  GSI1PK: 'ACCOUNT#acc_1#DOMAINS',
  GSI1SK: 'dom_1',
  type: 'domain',
  id: 'dom_1',
  account_id: 'acc_1',
  name: 'acme.test',
  status: 'pending',
  records: [
    {
      purpose: 'ownership',
      type: 'TXT',
      name: '_service.acme.test',
      value: 'service-verification=token-7c1e',
      required: true,
      status: 'pending',
    },
  ],
  dkim_selector: 'svc1',
  dkim_public_key: 'MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA',
  ownership_token: 'token-7c1e',
  open_tracking: false,
  click_tracking: false,
  tls_mode: 'opportunistic',
  inbound_enabled: false,
  inbound_subdomain: null,
  created_at: AT,
  updated_at: AT,
  dkim_private_key_sealed: SECRET,
};

describe('a well-formed item decodes to its model', () => {
  it('an account: its attributes, without the key and the type', () => {
    const account: Account = {
      id: 'acc_1',
      email: 'owner@acme.test',
      plan: 'pro',
      payment_method: true,
      tenants_enabled: false,
      created_at: AT,
      updated_at: AT,
    };
    expect(toAccount(accountItem)).toStrictEqual(account);
  });

  it('an email: the model (late attributes null), its body and its internals; keys and send bookkeeping dropped', () => {
    const stored = toStoredEmail(emailItem);
    const email: Email = {
      ...emailFields,
      status: 'queued',
      category: 'transactional',
      bounce_reason: null,
      bounce_type: null,
      scheduled_at: null,
      cancelled_at: null,
      sent_at: null,
      delivered_at: null,
      bounced_at: null,
      tenant: null,
      tenant_id: null,
      provider_message_id: null,
    };
    expect(stored.email).toStrictEqual(email);
    expect(stored.body).toStrictEqual({ inline: { text: 'Hello Ada' } });
    expect(stored.mime).toBeUndefined();
    expect(stored.internals).toEqual({ schedule_version: 2, send_lease_until: 1_800_000_000_000 });
  });

  it('a tenant: the model, its ramp and its SES twin; webhook_ids and the keys are not part of it', () => {
    expect(toStoredTenant(tenantItem)).toStrictEqual({
      tenant: tenantFields as Tenant,
      ramp: { stage: 2, day: '2026-11-23' },
      deleting: false,
      sesTlsTwin: true,
    });
    expect(toStoredTenant({ ...tenantItem, deleting: true }).deleting).toBe(true);
  });

  it('a run: its steps of every type (nested conditions included), its event and history; absent late attributes null', () => {
    expect(runFromItem(runItem)).toStrictEqual(runFields);
  });

  it('a run and an automation saved before reach was recorded (no allowed_domains): null, any domain as then (docs/automations.md, "Reach")', async () => {
    const { allowed_domains: _reach, ...legacyRun } = runItem;
    expect(runFromItem(legacyRun).allowed_domains).toBeNull();
    const legacyAutomation = {
      PK: 'AUTOMATION#acc_1#auto_1',
      SK: 'AUTOMATION',
      type: 'automation',
      id: 'auto_1',
      account_id: 'acc_1',
      name: 'Welcome',
      status: 'active',
      trigger: { event: 'user.created', cancel_on_events: [] },
      steps: [],
      version: 2,
      created_at: AT,
      updated_at: AT,
      activated_at: AT,
    };
    expect((await new AutomationRepository(tableAnswering(legacyAutomation)).get('acc_1', 'auto_1'))!.allowed_domains).toBeNull();
    expect(
      (await new AutomationRepository(tableAnswering({ ...legacyAutomation, allowed_domains: ['acme.test'] })).get('acc_1', 'auto_1'))!
        .allowed_domains,
    ).toEqual(['acme.test']);
  });

  it('a domain through its repository: the model and its sealed key apart', async () => {
    const stored = await new DomainRepository(tableAnswering(domainItem)).get('dom_1');
    const { PK: _pk, SK: _sk, GSI1PK: _g1, GSI1SK: _g1s, type: _type, dkim_private_key_sealed: _key, ...domain } = domainItem;
    expect(stored).toStrictEqual({
      domain: { ...domain, tenant_id: null, tenant: null, verified_at: null, last_checked_at: null, provider: null },
      sealedPrivateKey: SECRET,
      providerPendingSince: null,
    });
  });
});

describe('an item that is not its model is a StoredItemError', () => {
  it('a renamed attribute: the model, the key and the path', () => {
    const { external_id, ...rest } = tenantItem;
    const error = storedItemError(() => toStoredTenant({ ...rest, externalId: external_id }));
    expect(error.model).toBe('Tenant');
    expect(error.key).toBe('TENANT#acc_1#acme / TENANT');
    expect(error.problems).toEqual(['external_id (invalid_type, expected string)']);
    expect(error.message).toBe(
      'A stored Tenant item (TENANT#acc_1#acme / TENANT) does not decode: external_id (invalid_type, expected string)',
    );
  });

  it('a missing attribute, and one of the wrong kind, deep in the item', () => {
    const { to: _to, ...withoutTo } = emailItem;
    const error = storedItemError(() => toStoredEmail({ ...withoutTo, tags: [{ name: 'kind', val: 'welcome' }] }));
    expect(error.message).toContain('Email');
    expect(error.message).toContain(`EMAIL#${emailFields.id} / EMAIL`);
    expect(error.problems).toEqual(['to (invalid_type, expected array)', 'tags.0.value (invalid_type, expected string)']);
  });

  it('a status the model does not know', () => {
    const error = storedItemError(() => runFromItem({ ...runItem, step_state: 'sleeping' }));
    expect(error.message).toBe(`A stored Run item (RUN#${runFields.id} / RUN) does not decode: step_state (invalid_value)`);
  });

  it('a read through a repository throws it too (the model is never half-built)', async () => {
    const { dkim_selector: _selector, ...broken } = domainItem;
    await expect(new DomainRepository(tableAnswering(broken)).get('dom_1')).rejects.toThrow(
      new StoredItemError('Domain', 'DOMAIN#dom_1 / DOMAIN', ['dkim_selector (invalid_type, expected string)']),
    );
  });
});

describe('the error never shows a value of the item', () => {
  it('names paths and codes only: not the sealed key, addresses, tokens or any other value', async () => {
    const item = {
      ...domainItem,
      status: 'verified-by-hand',
      name: 42,
      records: [{ ...domainItem.records[0], status: SECRET }],
      provider: { status: 'pending', message: `see ${SECRET}`, checked_at: 7 },
      dkim_private_key_sealed: { secret: SECRET },
    };
    const error = await new DomainRepository(tableAnswering(item)).get('dom_1').then(
      () => null,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(StoredItemError);
    const message = (error as StoredItemError).message;
    expect((error as StoredItemError).problems).toEqual([
      'name (invalid_type, expected string)',
      'status (invalid_value)',
      'records.0.status (invalid_value)',
      'provider.checked_at (invalid_type, expected string)',
      'dkim_private_key_sealed (invalid_type, expected string)',
    ]);
    expect(message).not.toContain(SECRET);
    expect(message).not.toContain('SUPERSECRET');
    // No value of the item is in it, but what its key (named on purpose) holds and attribute-like words.
    const values = leaves(item).filter((value) => value.length > 3 && !'DOMAIN#dom_1 / DOMAIN'.includes(value) && !/^[a-z_]+$/.test(value));
    expect(values.filter((value) => message.includes(value))).toEqual([]);
  });

  it("a key of the item's own data (a header name) is shown as *", () => {
    const secretHeader = 'X-Reset-Token-4a9f2c';
    const error = storedItemError(() => toStoredEmail({ ...emailItem, headers: { [secretHeader]: 12345 } }));
    expect(error.problems).toEqual(['headers.* (invalid_type, expected string)']);
    expect(error.message).not.toContain(secretHeader);
    expect(error.message).not.toContain('12345');
  });
});

/**
 * The reads of older shapes as the repositories did them before the schemas (the casts they replaced,
 * copied here as the reference): the same item still reads the same.
 */
const before = {
  withoutKeys(item: Record<string, unknown>): Record<string, unknown> {
    const { PK, SK, GSI1PK, GSI1SK, GSI2PK, GSI2SK, GSI3PK, GSI3SK, ttl, ...rest } = item;
    return rest;
  },
  tenant(item: Record<string, unknown>) {
    const upgraded = {
      ...item,
      ramp_stage: item.ramp_stage ?? 1,
      ramp_day: item.ramp_day ?? String(item.created_at).slice(0, 10),
      ses_tls_twin: item.ses_tls_twin === true,
    };
    const { type, deleting, ramp_stage, ramp_day, webhook_ids: _webhooks, ses_tls_twin, ...rest } = before.withoutKeys(upgraded);
    return {
      tenant: rest as unknown as Tenant,
      ramp: { stage: Number(ramp_stage), day: String(ramp_day) },
      deleting: deleting === true,
      sesTlsTwin: ses_tls_twin,
    };
  },
  delivery(item: Record<string, unknown>) {
    const { type, ...rest } = before.withoutKeys(item);
    return { attempts: [], next_attempt_at: null, ...rest } as unknown as WebhookDelivery;
  },
  email(item: Record<string, unknown>) {
    const late = [
      'bounce_reason',
      'bounce_type',
      'scheduled_at',
      'cancelled_at',
      'sent_at',
      'delivered_at',
      'bounced_at',
      'tenant',
      'tenant_id',
      'provider_message_id',
    ];
    const {
      body,
      body_blob_key,
      mime_blob_key,
      last_event_rank,
      send_lease_until,
      send_attempts,
      type,
      schedule_version,
      usage_reserved,
      usage_deferred,
      suppressed_event,
      ...rest
    } = before.withoutKeys(item);
    return {
      email: { ...Object.fromEntries(late.map((field) => [field, null])), ...rest } as unknown as Email,
      body: body_blob_key ? { blobKey: body_blob_key } : { inline: body ?? {} },
      internals: { schedule_version, usage_reserved, ...(typeof send_lease_until === 'number' ? { send_lease_until } : {}) },
    };
  },
};

describe('older item shapes read as they did', () => {
  it('a tenant from before the ramp and the TLS twin: stage 1 from its creation day, no twin', () => {
    const { ramp_stage: _stage, ramp_day: _day, ses_tls_twin: _twin, webhook_ids: _ids, ...old } = tenantItem;
    const read = toStoredTenant(old);
    expect(read).toStrictEqual({
      tenant: tenantFields as Tenant,
      ramp: { stage: 1, day: '2026-11-24' },
      deleting: false,
      sesTlsTwin: false,
    });
    expect(read).toEqual(before.tenant(old));
  });

  it('a webhook delivery written before its first attempt (no attempts, no next_attempt_at): none and null', async () => {
    const item = {
      PK: 'DELIVERY#wh_1#01JD8Z6X4Q2T9V3N5M7K1H0G8F',
      SK: 'DELIVERY',
      GSI1PK: 'WEBHOOK#wh_1#DELIVERIES',
      GSI1SK: '01JD8Z6X4Q2T9V3N5M7K1H0G8F',
      type: 'webhook_delivery',
      id: 'whd_01JD8Z6X4Q2T9V3N5M7K1H0G8F',
      webhook_id: 'wh_1',
      account_id: 'acc_1',
      event_id: 'evt_01JD8Z6X4Q2T9V3N5M7K1H0G8F',
      event_type: 'email.sent',
      payload: '{"type":"email.sent"}',
      status: 'pending',
      created_at: AT,
      updated_at: AT,
      ttl: 1_900_000_000,
    };
    const read = await new WebhookDeliveryRepository(tableAnswering(item)).get('wh_1', 'whd_01JD8Z6X4Q2T9V3N5M7K1H0G8F');
    expect(read).toStrictEqual({
      id: 'whd_01JD8Z6X4Q2T9V3N5M7K1H0G8F',
      webhook_id: 'wh_1',
      account_id: 'acc_1',
      event_id: 'evt_01JD8Z6X4Q2T9V3N5M7K1H0G8F',
      event_type: 'email.sent',
      payload: '{"type":"email.sent"}',
      status: 'pending',
      attempts: [],
      next_attempt_at: null,
      created_at: AT,
      updated_at: AT,
    });
    expect(read).toEqual(before.delivery(item));
  });

  it('a received email from the first day of inbound (body_bytes, no html_bytes / text_bytes): both bodies absent, the rest as stored', async () => {
    const record = {
      id: 'inb_01JD8Z6X4Q2T9V3N5M7K1H0G8F',
      account_id: 'acc_1',
      domain_id: 'dom_1',
      tenant_id: null,
      tenant: null,
      status: 'received',
      from: 'Jane <jane@example.org>',
      to: ['support@inbound.acme.test'],
      cc: [],
      reply_to: [],
      subject: 'Hello',
      message_id: '<m1@example.org>',
      in_reply_to: null,
      references: [],
      date: null,
      mail_from: 'jane@example.org',
      rcpt_to: ['support@inbound.acme.test'],
      plus_address: null,
      spam_status: 'not_spam',
      authentication: {
        spf: { result: 'pass', domain: 'example.org' },
        dkim: [],
        dmarc: { result: 'none', domain: 'example.org', policy: null },
        spam_reasons: [],
      },
      auto_submitted: null,
      stripped_text: 'Hi',
      attachment_count: 0,
      attachments: [],
      size: 812,
      parse_error: null,
      truncated: false,
      tls: true,
      remote_address: '192.0.2.1',
      helo: 'mx.example.org',
      raw_key: 'inbound/raw/inb_01JD8Z6X4Q2T9V3N5M7K1H0G8F.eml',
      received_at: AT,
      created_at: AT,
    };
    const item = {
      PK: 'RECEIVED#inb_01JD8Z6X4Q2T9V3N5M7K1H0G8F',
      SK: 'RECEIVED',
      GSI1PK: 'ACCOUNT#acc_1#RECEIVED#0',
      GSI1SK: record.id,
      type: 'received_email',
      ...record,
      body_bytes: 120,
      search_to: ['support@inbound.acme.test'],
      from_address: 'jane@example.org',
    };
    const repository = new ReceivedEmailRepository(tableAnswering(item));
    expect(await repository.get('acc_1', record.id)).toStrictEqual({ ...record, html_bytes: null, text_bytes: null });
    // The same item with a body's size of today's shape is not upgraded (body_bytes is only dropped).
    const today = new ReceivedEmailRepository(tableAnswering({ ...item, html_bytes: 100, text_bytes: 20 }));
    expect(await today.get('acc_1', record.id)).toMatchObject({ html_bytes: 100, text_bytes: 20 });
  });

  it('an email without its late attributes (nothing filled yet, no tenant): each null, as before', () => {
    const { schedule_version: _version, send_lease_until: _lease, send_attempts: _attempts, ...item } = emailItem;
    const read = toStoredEmail(item);
    expect(read.email.sent_at).toBeNull();
    expect(read.email.tenant_id).toBeNull();
    expect(read.email.provider_message_id).toBeNull();
    expect(read).toEqual(before.email(item));
  });
});
