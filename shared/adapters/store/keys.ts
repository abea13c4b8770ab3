/**
 * The single-table key schema (documented in docs/architecture.md, "Data"). Every key is built here.
 *
 *   Account            PK ACCOUNT#<acc>          SK ACCOUNT
 *   Account email      PK ACCOUNTEMAIL#<email>   SK ACCOUNTEMAIL          (uniqueness of the owner email)
 *   API key (listing)  PK ACCOUNT#<acc>          SK APIKEY#<key>
 *   API key (lookup)   PK APIKEYHASH#<sha256>    SK APIKEYHASH
 *   Email              PK EMAIL#<msg>            SK EMAIL   GSI4PK ACCOUNT#<acc>#EMAILS#<shard>  GSI4SK <msg>  (keys only)
 *                      tenant emails also GSI5PK TENANT#<ten>#EMAILS#<shard>  GSI5SK <msg>  (keys only, sparse: GET /emails?tenant=)
 *                      (emails accepted before GSI4/GSI5: the same keys on GSI1 and GSI3, both ALL)
 *   Suppression        PK SUPPRESSION#<acc>#<email>  SK ACCOUNT | TENANT#<t>  GSI1PK ACCOUNT#<acc>[#TENANT#<t>]#SUPPRESSIONS#<shard>  GSI1SK <sup>
 *   Category opt-out   PK OPTOUT#<acc>#<email>   SK (ACCOUNT | TENANT#<t>)#CATEGORY#<category>
 *   Domain             PK DOMAIN#<dom>           SK DOMAIN  GSI1PK ACCOUNT#<acc>#DOMAINS  GSI1SK <dom>
 *   Domain name claim  PK DOMAINNAME#<name>      SK DOMAINNAME            (one owner per domain name)
 *   Idempotency key    PK IDEMPOTENCY#<acc>#<sha256(key)>  SK IDEMPOTENCY  (24 h TTL)
 *   Counters           PK ACCOUNT#<acc>          SK COUNTER#<what>        (atomic ADD with a limit condition)
 *   Usage (uncapped)   PK USAGE#<acc>#<scope>#<DAY|MONTH>#<period>  SK COUNTER  (counted by the outbox relay; TTL; before
 *                      2026-11-25: PK ACCOUNT#<acc> SK USAGE#<scope>#<DAY|MONTH>#<period>, still read)
 *   Usage shard        PK USAGE#<acc>#<scope>#<DAY|MONTH>#<period>#<n>  SK SHARD  (capped counters, own partitions; TTL)
 *   Rate-limit window  PK RATELIMIT#<acc>#<name> SK WINDOW#<start epoch s>  (API rate limits; TTL; the sign-in's: <acc> is email:<sha256> or ip:<address>;
 *                      the SMTP relay's failed logins, name smtpAuthFailures: <acc> is ip:<address> or cred:<sha256>)
 *   Dashboard user     PK DASHUSER#<email>       SK DASHUSER  GSI1PK ACCOUNT#<acc>#DASHUSERS  GSI1SK <usr>  (email unique per deployment by the key)
 *   Dashboard session  PK SESSION#<sha256(token)>  SK SESSION            (only the token's hash; TTL at the earlier expiry)
 *   Webhook endpoint   PK WEBHOOK#<wh>           SK WEBHOOK  GSI1PK ACCOUNT#<acc>#WEBHOOKS  GSI1SK <wh>
 *   Webhook delivery   PK DELIVERY#<wh>#<event ulid>  SK DELIVERY  GSI1PK WEBHOOK#<wh>#DELIVERIES  GSI1SK <event ulid>  (TTL)
 *   Attachment upload  PK UPLOAD#<acc>#<att>     SK UPLOAD                (24 h TTL; the account in the key: another account's id is a miss)
 *   Tenant             PK TENANT#<acc>#<external_id>  SK TENANT  GSI1PK ACCOUNT#<acc>#TENANTS  GSI1SK <ten>
 *                      (keyed by external_id: unique per account by its key; one read resolves the usual name)
 *   Tenant id alias    PK TENANTID#<ten>         SK TENANTID  GSI1PK TENANTIDS  GSI1SK <ten>  (account and external_id of a tenant id; every tenant, for the SES tenants sweep)
 *   Tenant scheduled   PK TENANTSCHEDULED#<ten>  SK <msg>                 (a tenant's email while scheduled: what its deletion cancels)
 *   SES tenants sweep  PK RECONCILER#SESTENANTS  SK STATE                 (the reconciler's place in both lists and its next run)
 *   SES send budget    PK SESBUDGET#<shard>      SK RATE                  (the sends' shared pace to SES's rate: shared/adapters/store/ses-send-budget.ts)
 *   Tenant day stats   PK TENANTSTATS#<ten>#<YYYY-MM-DD>  SK STATS       (counters by acceptance day, added from the stream; TTL)
 *   Tenant domain      PK TENANTDOMAINS#<ten>    SK <dom>                 (a tenant's domains, its own partition)
 *   Received email     PK RECEIVED#<inb>         SK RECEIVED  GSI1PK ACCOUNT#<acc>#RECEIVED#<shard>  GSI1SK <inb>
 *   Inbound raw marker PK INBOUNDRAW#<raw key>   SK INBOUNDRAW  GSI2PK INBOUNDRAW#<shard>  GSI2SK <due>#<raw key>  (queued or not: shared/adapters/store/inbound-raw-markers.ts; TTL)
 *   Template           PK TEMPLATE#<acc>#<alias> SK TEMPLATE  GSI1PK ACCOUNT#<acc>#TEMPLATES  GSI1SK <tpl>  (alias unique by the key)
 *   Automation         PK AUTOMATION#<acc>#<auto>  SK AUTOMATION  GSI1PK ACCOUNT#<acc>#AUTOMATIONS  GSI1SK <auto>
 *   Automation pointers PK AUTOTRIGGER#<acc>#<event> | AUTOCANCEL#<acc>#<event>  SK <auto>  (only while active)
 *   Tenant opt-outs    GSI1PK ACCOUNT#<acc>#TENANT#<ten>#OPTOUTS  GSI1SK <email>#<category>  (written before opt-outs had ids; the delete cascade still reads it)
 *   Import head        PK MIGRATION#<acc>#<mig>  SK HEAD  GSI1PK ACCOUNT#<acc>#MIGRATIONS  GSI1SK <mig>  (dry runs: TTL, no GSI1)
 *   Import report part PK MIGRATION#<acc>#<mig>  SK PART#<n>  (one stretch of work each; merged in order)
 *   DNS host credentials PK ACCOUNT#<acc>        SK DNSPROVIDER#<route53|cloudflare>  (sealed; DNS apply)
 *   Opt-outs listing   GSI1PK ACCOUNT#<acc>[#TENANT#<t>]#OPTOUTS#<category>#<shard>  GSI1SK <cop id>  (GET /suppressions?category=, newest first)
 *   Address reference  PK ADDRESSREF#<acc>#<address hash>  SK <KIND>#<target id>  (what names an address: erasure's index; TTL of its target)
 *   Erased address     PK ERASED#<acc>#<address hash>  SK ERASED     (an erased address's suppressions and opt-outs, by hash: docs/erasure.md)
 *   Erasure            PK ERASURE#<acc>#<era>    SK ERASURE              (POST /privacy/erasures: its progress and counts, never the address)
 *   Export head        PK EXPORT#<acc>#<exp>  SK HEAD  GSI1PK ACCOUNT#<acc>#EXPORTS  GSI1SK <exp>  (POST /exports; TTL: 7 days; ./exports.ts)
 *   Export slot        PK EXPORT#<acc>#RUNNING  SK RUNNING  (the account's one running export, taken by a conditional put)
 *   Domain health      PK DOMAINHEALTH#<dom>  SK HEALTH  GSI2PK HEALTHDUE  GSI2SK <next check ISO>#<dom>  (the last stored check; TTL)
 *   DMARC report address PK DMARCRUA#<address>  SK <dom>           (a domain whose aggregate reports go to the address; written with the domain's setting)
 *   DMARC report       PK DMARC#<dom>            SK REPORT#<report key>   (one per (reporter, report_id): the dedupe; TTL)
 *   DMARC rows         PK DMARC#<dom>            SK <YYYY-MM-DD>#<report key>#<nn>  (a report's rows by source IP; one Query per date range; TTL)
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
  /** One account's reputation counters for one UTC day (its own partition: written once per stream batch). */
  accountStats: (accountId: string, day: string) => ({ PK: `ACCOUNTSTATS#${accountId}#${day}`, SK: 'STATS' }),
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
   * Suppressions: one item per (account, address, list), keyed by the ADDRESS, not by the account.
   *
   *   Suppression  PK SUPPRESSION#<acc>#<email>  SK ACCOUNT | TENANT#<tenant>
   *                GSI1PK ACCOUNT#<acc>[#TENANT#<tenant>]#SUPPRESSIONS#<shard>  GSI1SK <sup id>
   *   Opt-out      PK OPTOUT#<acc>#<email>       SK (ACCOUNT | TENANT#<tenant>)#CATEGORY#<category>
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
