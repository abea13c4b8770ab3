/**
 * The table's key builders (a few repositories keep theirs beside them: ./exports.ts, ./audit-log.ts,
 * ./invitations.ts, ./dashboard-users.ts). Each entity's layout (its key templates, index entries and what it
 * holds) is declared once, as data, in ./layout/ (./layout/data-layout.ts);
 * test/unit/store/key-layout.test.ts holds every builder to those declarations, and docs/reference/data.md's
 * tables are generated from them (`npm run docs:data`).
 */
/** A user-chosen value inside a key (tenant ids): '%' and '#' escaped so it cannot end its segment early. */
export function keyPart(value: string): string {
  return value.replace(/%/g, '%25').replace(/#/g, '%23');
}

export const keys = {
  account: (accountId: string) => ({ PK: `ACCOUNT#${accountId}`, SK: 'ACCOUNT' }),
  accountEmail: (email: string) => ({ PK: `ACCOUNTEMAIL#${email.toLowerCase()}`, SK: 'ACCOUNTEMAIL' }),
  apiKey: (accountId: string, keyId: string) => ({ PK: `ACCOUNT#${accountId}`, SK: `APIKEY#${keyId}` }),
  apiKeyPrefix: (accountId: string) => ({ PK: `ACCOUNT#${accountId}`, SKPrefix: 'APIKEY#' }),
  apiKeyHash: (hash: string) => ({ PK: `APIKEYHASH#${hash}`, SK: 'APIKEYHASH' }),
  smtpCredential: (accountId: string, credentialId: string) => ({ PK: `ACCOUNT#${accountId}`, SK: `SMTPCRED#${credentialId}` }),
  smtpCredentialPrefix: (accountId: string) => ({ PK: `ACCOUNT#${accountId}`, SKPrefix: 'SMTPCRED#' }),
  email: (emailId: string) => ({ PK: `EMAIL#${emailId}`, SK: 'EMAIL' }),
  /**
   * Per-account listing of emails. The shard suffix lets a very large account spread its index writes
   * over several partitions (merged newest-first on read); accounts start with one shard.
   */
  emailsByAccount: (accountId: string, shard = 0) => `ACCOUNT#${accountId}#EMAILS#${shard}`,
  /**
   * Per-tenant listing of emails (GET /emails?tenant=, a tenant key's GET /emails): GSI5, sparse (only
   * tenant emails carry it). Keyed by our tenant id, never reused: a new tenant with a deleted tenant's
   * external_id does not inherit its emails.
   */
  emailsByTenant: (tenantId: string, shard = 0) => `TENANT#${tenantId}#EMAILS#${shard}`,
  /** A received (inbound) email: its own partition, like a sent email's. */
  receivedEmail: (emailId: string) => ({ PK: `RECEIVED#${emailId}`, SK: 'RECEIVED' }),
  /** Whether a stored raw inbound message was queued (shared/adapters/store/inbound-raw-markers.ts): its own partition. */
  inboundRawMarker: (rawKey: string) => ({ PK: `INBOUNDRAW#${rawKey}`, SK: 'INBOUNDRAW' }),
  /** Per-account listing of received emails (GSI1, newest first by the ULID id; one shard for now, as emails). */
  receivedByAccount: (accountId: string, shard = 0) => `ACCOUNT#${accountId}#RECEIVED#${shard}`,
  /**
   * A template, keyed by its account and alias: the alias is unique per account by the item key (a
   * conditional put). Draft and published version on one item (what the API reads and edits).
   */
  template: (accountId: string, alias: string) => ({ PK: `TEMPLATE#${accountId}#${keyPart(alias)}`, SK: 'TEMPLATE' }),
  /** The template's published pointer (template id and version; a few bytes): what a send reads first. */
  templatePublished: (accountId: string, alias: string) => ({ PK: `TEMPLATE#${accountId}#${keyPart(alias)}`, SK: 'PUBLISHED' }),
  /** One published version of one template (by id: an alias re-created starts over), written once, never changed. */
  templateVersion: (accountId: string, alias: string, templateId: string, version: number) => ({
    PK: `TEMPLATE#${accountId}#${keyPart(alias)}`,
    SK: `VERSION#${templateId}#${String(version).padStart(6, '0')}`,
  }),
  /** Per-account listing of templates (GSI1SK the tpl_ id: newest first). */
  templatesByAccount: (accountId: string) => `ACCOUNT#${accountId}#TEMPLATES`,
  /** An automation run: its own partition (10,000 runs of one automation are 10,000 independent items). */
  run: (runId: string) => ({ PK: `RUN#${runId}`, SK: 'RUN' }),
  /** Per-automation listing of runs (GSI1SK the run id: newest first). */
  runsByAutomation: (automationId: string) => `AUTOMATION#${automationId}#RUNS`,
  /**
   * Running runs of one user (GSI3, sparse: only while running): what POST /events reads to resume
   * waiting runs and cancel runs (cancel_on_events). Subject: `user:<id>` or `email:<address>`.
   */
  runsBySubject: (accountId: string, subject: string) => `RUNS#${accountId}#${keyPart(subject)}`,
  /** An automation, keyed by its account and id (another account's id is simply not found). */
  automation: (accountId: string, automationId: string) => ({ PK: `AUTOMATION#${accountId}#${automationId}`, SK: 'AUTOMATION' }),
  /** Per-account listing of automations (GSI1SK the auto_ id: newest first). */
  automationsByAccount: (accountId: string) => `ACCOUNT#${accountId}#AUTOMATIONS`,
  /** Pointer to an ACTIVE automation started by this event (present only while active; read by POST /events). */
  automationTrigger: (accountId: string, event: string, automationId: string) => ({
    PK: `AUTOTRIGGER#${accountId}#${keyPart(event)}`,
    SK: automationId,
  }),
  /** Pointer to an ACTIVE automation whose runs this event cancels (cancel_on_events; present only while active). */
  automationCancel: (accountId: string, event: string, automationId: string) => ({
    PK: `AUTOCANCEL#${accountId}#${keyPart(event)}`,
    SK: automationId,
  }),
  /** An import (POST /migrations), keyed by its account and id; its report parts share the partition. */
  migration: (accountId: string, migrationId: string) => ({ PK: `MIGRATION#${accountId}#${migrationId}`, SK: 'HEAD' }),
  /** Per-account listing of imports (GSI1SK the mig_ id: newest first). */
  migrationsByAccount: (accountId: string) => `ACCOUNT#${accountId}#MIGRATIONS`,
  domain: (domainId: string) => ({ PK: `DOMAIN#${domainId}`, SK: 'DOMAIN' }),
  domainsByAccount: (accountId: string) => `ACCOUNT#${accountId}#DOMAINS`,
  /** A domain's stored health check (shared/adapters/store/domain-health.ts): its own partition. */
  domainHealth: (domainId: string) => ({ PK: `DOMAINHEALTH#${domainId}`, SK: 'HEALTH' }),
  /** The due index's partition of health checks to run (GSI2; one partition: a write per domain per day). */
  healthDue: () => 'HEALTHDUE',
  /** A receiving domain's hosted MTA-STS policy (shared/adapters/store/mta-sts-hosting.ts), keyed by its policy domain (unique: names are claimed). */
  mtaStsHosting: (policyDomain: string) => ({ PK: `MTASTS#${policyDomain.toLowerCase()}`, SK: 'HOSTING' }),
  /** The due index's partition of hosted MTA-STS policies with a step to take (GSI2; a few writes per hosting while provisioned, one a day after). */
  mtaStsDue: () => 'MTASTSDUE',
  /** A sending domain's link domain (shared/adapters/store/link-domains.ts), keyed by its host `links.<domain>` (unique: names are claimed). */
  linkDomain: (host: string) => ({ PK: `LINKHOST#${host.toLowerCase()}`, SK: 'HOSTING' }),
  /** The due index's partition of link domains with a step to take (GSI2). */
  linkDomainDue: () => 'LINKHOSTDUE',
  domainName: (name: string) => ({ PK: `DOMAINNAME#${name.toLowerCase()}`, SK: 'DOMAINNAME' }),
  idempotency: (accountId: string, keyHash: string) => ({ PK: `IDEMPOTENCY#${accountId}#${keyHash}`, SK: 'IDEMPOTENCY' }),
  counter: (accountId: string, what: string) => ({ PK: `ACCOUNT#${accountId}`, SK: `COUNTER#${what}` }),
  /**
   * An uncapped usage counter (added to by the outbox relay, once per batch): its own partition, not the
   * account's, which every send's read of the account shares (docs/benchmarks.md, "The partition model").
   */
  usage: (accountId: string, scope: string, period: 'DAY' | 'MONTH', value: string) => ({
    PK: `USAGE#${accountId}#${scope}#${period}#${value}`,
    SK: 'COUNTER',
  }),
  /**
   * Where uncapped counters were kept before 2026-11-25 (and unsharded capped ones before the shards), under the
   * account's partition: read and summed with the others (UsageLedger), never written by new sends.
   */
  legacyUsage: (accountId: string, scope: string, period: 'DAY' | 'MONTH', value: string) => ({
    PK: `ACCOUNT#${accountId}`,
    SK: `USAGE#${scope}#${period}#${value}`,
  }),
  /**
   * One shard of an uncapped usage counter as the outbox relay adds to it: each relay batch picks one shard by
   * its transaction token, so one account's batches spread over DEFERRED_USAGE_SHARDS items at any stream shard
   * count (shared/adapters/store/deferred-usage.ts); readers sum them with the unsharded item.
   */
  usageDeferredShard: (accountId: string, scope: string, period: 'DAY' | 'MONTH', value: string, shard: number) => ({
    PK: `USAGE#${accountId}#${scope}#${period}#${value}#D${shard}`,
    SK: 'COUNTER',
  }),
  /** One shard of a capped usage counter (shard caps add up to the limit: shared/domain/accounts/limits.ts). */
  usageShard: (accountId: string, scope: string, period: 'DAY' | 'MONTH', value: string, shard: number) => ({
    PK: `USAGE#${accountId}#${scope}#${period}#${value}#${shard}`,
    SK: 'SHARD',
  }),
  /**
   * One fixed-window request counter (API rate limits). Its own partition per account and limit, not the
   * account's: a polling client's counter writes never share a partition with the account's other items.
   */
  rateLimitWindow: (subject: string, name: string, windowStart: number) => ({
    PK: `RATELIMIT#${keyPart(subject)}#${name}`,
    SK: `WINDOW#${windowStart}`,
  }),
  /**
   * A dashboard user, keyed by its normalised email: one user per address in the whole deployment (a
   * conditional put), and the sign-in finds it with one GetItem. Listed per account through GSI1.
   */
  dashboardUser: (email: string) => ({ PK: `DASHUSER#${email.toLowerCase()}`, SK: 'DASHUSER' }),
  dashboardUsersByAccount: (accountId: string) => `ACCOUNT#${accountId}#DASHUSERS`,
  /** A dashboard session, keyed by the SHA-256 of its token (the cookie's value is never stored). */
  session: (tokenHash: string) => ({ PK: `SESSION#${tokenHash}`, SK: 'SESSION' }),
  /** An OpenID Connect sign-in under way (docs/dashboard.md), keyed by the SHA-256 of its cookie's token; TTL 10 minutes. */
  oidcFlow: (tokenHash: string) => ({ PK: `OIDCFLOW#${tokenHash}`, SK: 'OIDCFLOW' }),
  webhook: (webhookId: string) => ({ PK: `WEBHOOK#${webhookId}`, SK: 'WEBHOOK' }),
  webhooksByAccount: (accountId: string) => `ACCOUNT#${accountId}#WEBHOOKS`,
  /** One item per (endpoint, event): a busy endpoint's delivery writes spread over many partitions. */
  webhookDelivery: (webhookId: string, eventUlid: string) => ({ PK: `DELIVERY#${webhookId}#${eventUlid}`, SK: 'DELIVERY' }),
  deliveriesByWebhook: (webhookId: string) => `WEBHOOK#${webhookId}#DELIVERIES`,
  /**
   * A pull endpoint's events feed (GSI3, sparse: a delivery only while it waits for its listener's report),
   * GSI3SK `<when it entered the feed, ISO 8601>#<event ulid>`: oldest first (shared/domain/webhooks/listener.ts).
   */
  webhookFeed: (webhookId: string) => `WEBHOOK#${webhookId}#FEED`,
  /** A tenant, keyed by its account and external_id (escaped: external ids may hold any of `. _ : @ -`). */
  tenant: (accountId: string, externalId: string) => ({ PK: `TENANT#${accountId}#${keyPart(externalId)}`, SK: 'TENANT' }),
  tenantsByAccount: (accountId: string) => `ACCOUNT#${accountId}#TENANTS`,
  /** Where a tenant id leads: its account and external_id. */
  tenantId: (tenantId: string) => ({ PK: `TENANTID#${tenantId}`, SK: 'TENANTID' }),
  /** GSI1 partition of every tenant id alias (ids in creation order): the reconciler's SES tenants sweep. */
  allTenantIds: () => 'TENANTIDS',
  /** A tenant's scheduled email (present while it is scheduled): its own partition per tenant, read by the tenant's deletion. */
  tenantScheduled: (tenantId: string, emailId: string) => ({ PK: `TENANTSCHEDULED#${tenantId}`, SK: emailId }),
  tenantScheduledPartition: (tenantId: string) => `TENANTSCHEDULED#${tenantId}`,
  /** The reconciler's SES tenants sweep: where it is in each list, and when it runs next. */
  sesTenantSweep: () => ({ PK: 'RECONCILER#SESTENANTS', SK: 'STATE' }),
  /** One shard of the send workers' shared pace to SES's send rate (shared/adapters/store/ses-send-budget.ts). */
  sesSendBudget: (shard: number) => ({ PK: `SESBUDGET#${shard}`, SK: 'RATE' }),
  /** A tenant's domain (membership item): its own partition per tenant, the tenant's domains in id order. */
  tenantDomain: (tenantId: string, domainId: string) => ({ PK: `TENANTDOMAINS#${tenantId}`, SK: domainId }),
  tenantDomains: (tenantId: string) => `TENANTDOMAINS#${tenantId}`,
  /** The GSI1 partition of one tenant's category opt-outs. */
  optOutsByTenant: (accountId: string, tenantId: string) => `ACCOUNT#${accountId}#TENANT#${keyPart(tenantId)}#OPTOUTS`,
  /**
   * The GSI1 partition of one list's opt-outs of one category (GSI1SK the opt-out's id: newest first),
   * account-wide or a tenant's: GET /suppressions?category=, and a deleted tenant's clean-up. Opt-outs
   * written before it are in optOutsByTenant (tenants) or in none (the account's).
   */
  optOutsByCategory: (accountId: string, tenantId: string | null, category: string, shard = 0) =>
    `ACCOUNT#${accountId}${tenantId === null ? '' : `#TENANT#${keyPart(tenantId)}`}#OPTOUTS#${category}#${shard}`,
  /** One tenant's counters for one UTC day (its own partition: written once per stream batch). */
  tenantStats: (tenantId: string, day: string) => ({ PK: `TENANTSTATS#${tenantId}#${day}`, SK: 'STATS' }),
  /** One account's reputation counters for one UTC day, as written before 2026-11-26 (one item: still read and summed). */
  accountStats: (accountId: string, day: string) => ({ PK: `ACCOUNTSTATS#${accountId}#${day}`, SK: 'STATS' }),
  /**
   * One shard of an account's or a tenant's day counters (shared/adapters/store/account-stats.ts: DAY_STATS_SHARDS
   * of each, a stream batch adds to the one its token picks, summed on read with the unsharded item).
   */
  accountStatsShard: (accountId: string, day: string, shard: number) => ({ PK: `ACCOUNTSTATS#${accountId}#${day}#${shard}`, SK: 'STATS' }),
  tenantStatsShard: (tenantId: string, day: string, shard: number) => ({ PK: `TENANTSTATS#${tenantId}#${day}#${shard}`, SK: 'STATS' }),
  /**
   * One shard of the deployment's reputation counters for one UTC day (shared/adapters/store/account-stats.ts:
   * DEPLOYMENT_STATS_SHARDS of them, summed on read, so no item is written by every stream batch).
   */
  deploymentStats: (day: string, shard: number) => ({ PK: `DEPLOYMENTSTATS#${day}#${shard}`, SK: 'STATS' }),
  /**
   * Link signing keys (shared/adapters/store/link-keys.ts): one service-wide partition, a key per kid, padded so
   * the newest sorts last. `LINKKEYS` / `KEY#<kid, 10 digits>`.
   */
  linkKeys: () => 'LINKKEYS',
  linkKey: (kid: string) => ({ PK: 'LINKKEYS', SK: `KEY#${kid.padStart(10, '0')}` }),
  /** Stored DNS host credentials (DNS apply; docs/domains.md): one per account and host, the secret sealed. */
  dnsProvider: (accountId: string, provider: string) => ({ PK: `ACCOUNT#${accountId}`, SK: `DNSPROVIDER#${provider}` }),
  dnsProviderPrefix: (accountId: string) => ({ PK: `ACCOUNT#${accountId}`, SKPrefix: 'DNSPROVIDER#' }),
  /**
   * What names an address (docs/erasure.md): one small item per (address, email / received email / webhook
   * delivery / idempotency record / automation run / export) naming it, in the address's own partition, keyed by the hash of the account
   * and address (shared/domain/privacy/address-hash.ts): an erasure finds everything by one Query, no Scan.
   */
  addressRef: (accountId: string, addressHash: string, target: string) => ({ PK: `ADDRESSREF#${accountId}#${addressHash}`, SK: target }),
  addressRefs: (accountId: string, addressHash: string) => `ADDRESSREF#${accountId}#${addressHash}`,
  /** An erased address's suppressions and category opt-outs, kept by hash only (read on the send path). */
  erasedAddress: (accountId: string, addressHash: string) => ({ PK: `ERASED#${accountId}#${addressHash}`, SK: 'ERASED' }),
  /** An erasure (POST /privacy/erasures), keyed by its account and id: another account's id is not found. */
  erasure: (accountId: string, erasureId: string) => ({ PK: `ERASURE#${accountId}#${erasureId}`, SK: 'ERASURE' }),
  /** An attachment upload (POST /attachments). Keyed by account and id: a foreign id is simply not found. */
  attachmentUpload: (accountId: string, attachmentId: string) => ({ PK: `UPLOAD#${accountId}#${attachmentId}`, SK: 'UPLOAD' }),
  /*
   * Suppressions: one item per (account, address, list), keyed by the ADDRESS, not by the account (their
   * layout and the opt-outs': ./layout/lists.ts).
   *
   * Why not PK ACCOUNT#<acc>#SUPPRESSIONS / SK EMAIL#<email>: the hot path is the send path, which looks
   * up every recipient (BatchGetItem) on every send. With one partition key per account, an account with
   * millions of suppressions sending thousands of emails a second would read and write a single
   * partition (3,000 RCU / 1,000 WCU) until DynamoDB splits it for heat, and a bulk import would
   * throttle the account's sends. Keyed by address, lookups and conditional puts spread over the whole
   * table and a send's recipients are independent keys. Both lists of one address share a partition
   * (SK says which list), so the uniqueness of (list, address) is the item key itself: a conditional
   * put with attribute_not_exists makes concurrent adds create exactly one record.
   * Listing is the price: it goes through GSI1 (newest first by the ULID id; eventually consistent, like
   * the emails listing), whose partition carries a shard suffix so a large account can spread index
   * writes later (one shard for now). Opt-outs are read per address on the send path and listed per category (optOutsByCategory).
   * Tenant ids are user-chosen: keyPart escapes '#' so one cannot forge another list's key. Addresses
   * come last in their PK, so a '#' in a local part is harmless.
   */
  suppression: (accountId: string, email: string, tenantId: string | null) => ({
    PK: `SUPPRESSION#${accountId}#${email.toLowerCase()}`,
    SK: tenantId === null ? 'ACCOUNT' : `TENANT#${keyPart(tenantId)}`,
  }),
  suppressionsByScope: (accountId: string, tenantId: string | null, shard = 0) =>
    tenantId === null
      ? `ACCOUNT#${accountId}#SUPPRESSIONS#${shard}`
      : `ACCOUNT#${accountId}#TENANT#${keyPart(tenantId)}#SUPPRESSIONS#${shard}`,
  categoryOptOut: (accountId: string, email: string, tenantId: string | null, category: string) => ({
    PK: `OPTOUT#${accountId}#${email.toLowerCase()}`,
    SK: `${tenantId === null ? 'ACCOUNT' : `TENANT#${keyPart(tenantId)}`}#CATEGORY#${category}`,
  }),
  categoryOptOutPrefix: (accountId: string, email: string, tenantId: string | null) => ({
    PK: `OPTOUT#${accountId}#${email.toLowerCase()}`,
    SKPrefix: `${tenantId === null ? 'ACCOUNT' : `TENANT#${keyPart(tenantId)}`}#CATEGORY#`,
  }),
  /** A domain whose DMARC aggregate reports go to `address` (lower case; several domains may share one). */
  dmarcReportAddress: (address: string, domainId: string) => ({ PK: `DMARCRUA#${address.toLowerCase()}`, SK: domainId }),
  dmarcReportAddressPartition: (address: string) => `DMARCRUA#${address.toLowerCase()}`,
  /** A domain's DMARC figures: reports (dedupe) and their rows by day (shared/adapters/store/dmarc-reports.ts). */
  dmarcPartition: (domainId: string) => `DMARC#${domainId}`,
  dmarcReport: (domainId: string, reportKey: string) => ({ PK: `DMARC#${domainId}`, SK: `REPORT#${reportKey}` }),
  dmarcRows: (domainId: string, day: string, reportKey: string, chunk: number) => ({
    PK: `DMARC#${domainId}`,
    SK: `${day}#${reportKey}#${String(chunk).padStart(2, '0')}`,
  }),
  /** The sort keys of a range of days (both included): `<since>` to `<until>#~` (report keys are base64url, below `~`). */
  dmarcDays: (since: string, until: string) => ({ from: since, to: `${until}#~` }),
};
