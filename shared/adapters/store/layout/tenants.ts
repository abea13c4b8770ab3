/** The key layout of tenants and the day statistics (./entity-layout.ts). */
import type { LayoutArea } from './entity-layout';

export const TENANTS: LayoutArea = {
  title: 'Tenants and statistics',
  entities: [
    {
      item: 'tenant',
      description:
        'keyed by external_id: unique per account by its key, and one read resolves the usual name; ramp state `ramp_stage`, `ramp_day`; `webhook_ids`, the endpoints whose filter named it; `ses_tls_twin`, its SES tenant has the TLS-required configuration set: [ses-tenants.md](../ses-tenants.md)',
      pk: 'TENANT#<acc>#<external_id>',
      sk: 'TENANT',
      indexes: [{ index: 'GSI1', pk: 'ACCOUNT#<acc>#TENANTS', sk: '<ten>' }],
      built: (k, v) => [{ ...k.tenant(v.acc, v.external_id), GSI1PK: k.tenantsByAccount(v.acc), GSI1SK: v.ten }],
    },
    {
      item: 'tenant id alias',
      description: 'the account and external_id of a tenant id',
      pk: 'TENANTID#<ten>',
      sk: 'TENANTID',
      indexes: [{ index: 'GSI1', pk: 'TENANTIDS', sk: '<ten>', note: "every tenant: the reconciler's SES tenants sweep" }],
      built: (k, v) => [{ ...k.tenantId(v.ten), GSI1PK: k.allTenantIds(), GSI1SK: v.ten }],
    },
    {
      item: 'tenant scheduled email',
      description:
        "while scheduled, its own partition per tenant: what the tenant's deletion cancels; [tenants.md](../tenants.md#deleting-a-tenant)",
      pk: 'TENANTSCHEDULED#<ten>',
      sk: '<msg>',
      built: (k, v) => [k.tenantScheduled(v.ten, v.msg), { PK: k.tenantScheduledPartition(v.ten) }],
    },
    {
      item: 'SES tenants sweep',
      description: "the reconciler's place in both lists and its next run; [ses-tenants.md](../ses-tenants.md#reconciliation)",
      pk: 'RECONCILER#SESTENANTS',
      sk: 'STATE',
      built: (k) => [k.sesTenantSweep()],
    },
    {
      item: 'tenant day stats',
      description:
        'counters by acceptance day, added from the stream: 8 shards, a stream batch adds to the one its token picks, summed on read with the item of before 2026-11-26 (next row); TTL',
      pk: 'TENANTSTATS#<ten>#<day>#<0-7>',
      sk: 'STATS',
      built: (k, v) => [k.tenantStatsShard(v.ten, v.day, Number(v['0-7']))],
    },
    {
      item: 'tenant day stats, before 2026-11-26',
      description: 'one item per tenant and day, as written before the shards: still read and summed, never written',
      pk: 'TENANTSTATS#<ten>#<day>',
      sk: 'STATS',
      built: (k, v) => [k.tenantStats(v.ten, v.day)],
    },
    {
      item: 'account day stats',
      description:
        '`sent`, `bounced`, `complained` of every email by acceptance day, and `tenant_*` the part its tenants sent; 8 shards, a stream batch adds to the one its token picks, summed on read; TTL 400 d; read by the reputation guard, the health check and `GET /account/stats`: [deliverability.md](../deliverability.md#account-stats)',
      pk: 'ACCOUNTSTATS#<acc>#<day>#<0-7>',
      sk: 'STATS',
      built: (k, v) => [k.accountStatsShard(v.acc, v.day, Number(v['0-7']))],
    },
    {
      item: 'account day stats, before 2026-11-26',
      description: 'one item per account and day, as written before the shards: still read and summed, never written',
      pk: 'ACCOUNTSTATS#<acc>#<day>',
      sk: 'STATS',
      built: (k, v) => [k.accountStats(v.acc, v.day)],
    },
    {
      item: 'deployment day stats',
      description: "the same three, 16 shards summed on read, the shard picked by the batch's token; TTL 400 d",
      pk: 'DEPLOYMENTSTATS#<day>#<0-15>',
      sk: 'STATS',
      built: (k, v) => [k.deploymentStats(v.day, Number(v['0-15']))],
    },
  ],
};
