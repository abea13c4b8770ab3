/** The key layout of sending and receiving: emails, their usage and idempotency, uploads, received mail (./entity-layout.ts). */
import { dueAttributes } from '../due-index';
import { markerDueKey } from '../inbound-raw-markers';
import type { LayoutArea } from './entity-layout';

export const SENDING: LayoutArea = {
  title: 'Sending and receiving',
  entities: [
    {
      item: 'email',
      description:
        'keyed by its own id (no hot partition on the send path); its listing entries are on keys-only indexes, written once when it is accepted (the status writes that follow never rewrite them); emails accepted before GSI4/GSI5 have the same keys on GSI1 and GSI3 (both ALL)',
      pk: 'EMAIL#<msg>',
      sk: 'EMAIL',
      indexes: [
        { index: 'GSI4', pk: 'ACCOUNT#<acc>#EMAILS#<shard>', sk: '<msg>', note: "the account's listing, keys only" },
        { index: 'GSI5', pk: 'TENANT#<ten>#EMAILS#<shard>', sk: '<msg>', note: "a tenant email: the tenant's listing, keys only, sparse" },
        {
          index: 'GSI2',
          pk: 'DUE#<shard>',
          sk: '<due ISO>#EMAIL#<msg>',
          note: 'the due index, while queued, scheduled or sent without an outcome',
        },
        { index: 'GSI1', pk: 'ACCOUNT#<acc>#EMAILS#<shard>', sk: '<msg>', note: 'older emails only' },
        { index: 'GSI3', pk: 'TENANT#<ten>#EMAILS#<shard>', sk: '<msg>', note: 'older tenant emails only' },
      ],
      built: (k, v) => [
        {
          ...k.email(v.msg),
          GSI4PK: k.emailsByAccount(v.acc, 3),
          GSI4SK: v.msg,
          GSI5PK: k.emailsByTenant(v.ten, 3),
          GSI5SK: v.msg,
          ...dueAttributes('EMAIL', v.msg, Date.parse(v['due ISO'])),
        },
        { GSI1PK: k.emailsByAccount(v.acc, 0), GSI1SK: v.msg, GSI3PK: k.emailsByTenant(v.ten, 0), GSI3SK: v.msg },
      ],
    },
    {
      item: 'idempotency key',
      description:
        'put (absent or expired) in the same transaction as the email, so concurrent requests with one key create one email; 24 h TTL',
      pk: 'IDEMPOTENCY#<acc>#<sha256(key)>',
      sk: 'IDEMPOTENCY',
      built: (k, v) => [k.idempotency(v.acc, v['sha256(key)'])],
    },
    {
      item: 'usage, uncapped',
      description:
        "the counter an accepted email names (`usage_deferred`) and a cancelled scheduled send gives places back to; the outbox relay adds to its shards (next row); its own partition, not the account's, which every send's read of the account shares; scope `PLAN`, `SANDBOX`, `TENANT:<ten>:<stream|all>`",
      pk: 'USAGE#<acc>#<scope>#<DAY|MONTH>#<period>',
      sk: 'COUNTER',
      built: (k, v) => [k.usage(v.acc, v.scope, v['DAY|MONTH'], v.period)],
    },
    {
      item: 'usage, uncapped, a relay shard',
      description:
        'where the outbox relay adds since 2026-11-26: 32 per counter, each relay batch one (picked by its transaction token), so no item takes every batch of an account; readers sum them with the unsharded item; TTL',
      pk: 'USAGE#<acc>#<scope>#<DAY|MONTH>#<period>#D<n>',
      sk: 'COUNTER',
      built: (k, v) => [k.usageDeferredShard(v.acc, v.scope, v['DAY|MONTH'], v.period, Number(v.n))],
    },
    {
      item: 'usage, uncapped, before 2026-11-25',
      description:
        "where uncapped counters (and unsharded capped ones before the shards) were kept, under the account's partition: still read and summed, never written by new sends",
      pk: 'ACCOUNT#<acc>',
      sk: 'USAGE#<scope>#<DAY|MONTH>#<period>',
      built: (k, v) => [k.legacyUsage(v.acc, v.scope, v['DAY|MONTH'], v.period)],
    },
    {
      item: 'usage shard, capped',
      description:
        "8 per counter, their caps adding up to the limit, each its own partition: a conditional `ADD` of its part of the recipients in the email's transaction; TTL",
      pk: 'USAGE#<acc>#<scope>#<DAY|MONTH>#<period>#<n>',
      sk: 'SHARD',
      built: (k, v) => [k.usageShard(v.acc, v.scope, v['DAY|MONTH'], v.period, Number(v.n))],
    },
    {
      item: 'attachment upload',
      description: "24 h TTL; the account in the key: another account's id is a miss",
      pk: 'UPLOAD#<acc>#<att>',
      sk: 'UPLOAD',
      built: (k, v) => [k.attachmentUpload(v.acc, v.att)],
    },
    {
      item: 'SES send budget',
      description:
        "the send workers' shared pace to SES's rate, `tat` in epoch ms; one shard per 500 sends/s; [deploy.md](../deploy.md#ses-quota)",
      pk: 'SESBUDGET#<shard>',
      sk: 'RATE',
      built: (k) => [k.sesSendBudget(3)],
    },
    {
      item: 'received (inbound) email',
      description: 'its own partition, like a sent email; bodies, headers, attachments in S3 `inbound/<inb>/`',
      pk: 'RECEIVED#<inb>',
      sk: 'RECEIVED',
      indexes: [
        { index: 'GSI1', pk: 'ACCOUNT#<acc>#RECEIVED#0', sk: '<inb>', note: "the account's listing, newest first; one shard for now" },
      ],
      built: (k, v) => [{ ...k.receivedEmail(v.inb), GSI1PK: k.receivedByAccount(v.acc), GSI1SK: v.inb }],
    },
    {
      item: 'inbound raw marker',
      description:
        '`pending`, `claimed`, `discarded` (`queued` from listeners before 2026-11-27): whether a stored raw message was recorded; TTL 30 d; [inbound.md](../inbound.md#nothing-left-behind)',
      pk: 'INBOUNDRAW#<raw key>',
      sk: 'INBOUNDRAW',
      indexes: [{ index: 'GSI2', pk: 'INBOUNDRAW#<shard>', sk: '<due ISO>#<raw key>', note: 'while it may need deleting' }],
      built: (k, v) => [{ ...k.inboundRawMarker(v['raw key']), ...markerDueKey(v['raw key'], Date.parse(v['due ISO'])) }],
    },
  ],
};
