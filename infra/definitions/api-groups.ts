/** The HTTP API's groups: one Lambda each, with its entry, its pages besides its operations, its grants and memory. */
import type { Grant } from './access';
import { SENDING_STACK, type Capability } from './capabilities';
import {
  mailBucketRead,
  mailBucketReadWrite,
  oneTimeSchedules,
  route53Records,
  secretsKeyDecrypt,
  secretsKeyEncrypt,
  secretsKeyEncryptDecrypt,
  sendsTo,
  sesManageIdentities,
  sesManageTenants,
  tableRead,
  tableReadWrite,
} from './grants';

export interface ApiGroupDefinition {
  /** Group name; also the Lambda's logical id suffix. */
  name: string;
  /** Entry file (relative to the project root) exporting `handler`. */
  entry: string;
  /**
   * Routes (API Gateway syntax) of what the group serves besides its operations: the dashboard's pages.
   * The routes of its operations come from their declarations (infra/api-routes.ts).
   */
  pages?: string[];
  /** What its code builds (./capabilities.ts): the shared/services/ modules its handler composes. */
  capabilities: Capability[];
  grants: Grant[];
  /** Lambda memory (MB); unset: the functions' default (docs/deploy.md, "Memory sizing"). */
  memoryMb?: number;
}

/**
 * The grants of a door that runs the send core (the emails group's POST /emails, the provider-compatible
 * doors): the table, the send queue, the mail bucket (large bodies, attachments) and one-time schedules.
 */
const SEND_CORE_GRANTS: Grant[] = [
  tableReadWrite,
  sendsTo('send'),
  mailBucketReadWrite,
  // Scheduled sends: one-time schedules targeting the send queue.
  oneTimeSchedules,
];

export const API_GROUPS: ApiGroupDefinition[] = [
  {
    name: 'emails',
    entry: 'functions/api/emails/handler.ts',
    capabilities: [...SENDING_STACK, 'mail-domains', 'messaging', 'blobs', 'schedules'],
    // The send path: half the compute time of a request and of a cold start at 512 MB (docs/deploy.md, "Memory sizing").
    memoryMb: 1024,
    grants: [
      ...SEND_CORE_GRANTS,
      // POST /emails/test events.
      sendsTo('webhookEvents'),
    ],
  },
  {
    // The provider-compatible sending doors (docs/compat.md): SendGrid's /v3/mail/send, Postmark's /email,
    // Mailgun's /v3/{domain}/messages, each onto the send core with the provider's own auth and answers.
    // Not operations of the OpenAPI reference: their routes are pages. The emails group's send grants.
    name: 'compat',
    entry: 'functions/api/compat/handler.ts',
    capabilities: [...SENDING_STACK, 'mail-domains', 'imports', 'messaging', 'blobs', 'schedules'],
    pages: ['ANY /v3/{proxy+}', 'ANY /email', 'ANY /email/{proxy+}'],
    memoryMb: 1024,
    grants: SEND_CORE_GRANTS,
  },
  {
    // The MCP server over streamable HTTP (docs/mcp.md): POST /mcp behind the API key. Its tools call this
    // API over HTTP with the caller's own key (clients/mcp), so every scope, limit and rule applies as to any
    // caller; the group itself only reads the key.
    name: 'mcp',
    entry: 'functions/api/mcp/handler.ts',
    capabilities: ['platform', 'access'],
    pages: ['ANY /mcp', 'ANY /mcp/{proxy+}'],
    grants: [tableRead],
  },
  {
    // The account's settings (GET/PATCH /account: retention, content storage), erasures (/privacy/erasures) and
    // exports (/exports): docs/privacy.md. Erasures delete objects naming an address; exports write NDJSON
    // objects and sign their download links.
    name: 'account',
    entry: 'functions/api/account/handler.ts',
    capabilities: [
      'platform',
      'access',
      'tenants',
      'domains',
      'templates',
      'emails',
      'suppressions',
      'webhooks',
      'automations',
      'inbound',
      'privacy',
      'deliverability',
      'blobs',
    ],
    grants: [tableReadWrite, mailBucketReadWrite],
  },
  {
    name: 'api-keys',
    entry: 'functions/api/api-keys/handler.ts',
    capabilities: ['platform', 'access', 'tenants'],
    grants: [tableReadWrite],
  },
  {
    name: 'smtp-credentials',
    entry: 'functions/api/smtp-credentials/handler.ts',
    capabilities: ['platform', 'access', 'tenants'],
    grants: [tableReadWrite],
  },
  {
    name: 'tenants',
    entry: 'functions/api/tenants/handler.ts',
    capabilities: [
      'platform',
      'access',
      'tenants',
      'domains',
      'emails',
      'usage',
      'suppressions',
      'webhooks',
      'ses',
      'tenant-cleanup',
      'link-domains',
    ],
    grants: [
      tableReadWrite,
      // Each tenant is an SES tenant (created with the tenant, deleted with it) using our configuration set
      // and its domains' identities (given to and returned from the tenant here).
      sesManageTenants,
    ],
  },
  {
    name: 'domains',
    entry: 'functions/api/domains/handler.ts',
    capabilities: [
      'platform',
      'access',
      'tenants',
      'domains',
      'deliverability',
      'mta-sts-hosting',
      'link-domains',
      'messaging',
      'ses',
      'secrets',
      'dns-apply',
      'webhooks',
    ],
    // /dns-providers: the DNS host credentials DNS apply may use (stored sealed).
    // POST /domains generates a 2048-bit RSA key (~240 ms of CPU): ~0.4 s at 1024 MB, ~0.8 s at 512 (docs/deploy.md).
    memoryMb: 1024,
    grants: [
      tableReadWrite,
      // New domains get an encrypted DKIM key; verification decrypts it to sign a probe. Stored DNS host
      // credentials are sealed and opened with it too.
      secretsKeyEncryptDecrypt,
      // DNS apply through Route 53 without credentials in the request: the function's own role writes the
      // records in the account's hosted zones (docs/domains.md, "DNS apply"). Cloudflare is outbound HTTPS only.
      route53Records,
      // A verified domain becomes an SES identity (BYODKIM with its key, MAIL FROM rp.<domain>); deleting removes it.
      sesManageIdentities,
      // A tenant's domain, once verified (or deleted), is associated with (or dissociated from) its SES tenant.
      sesManageTenants,
      // A health check that opened or fixed a finding raises domain.health_changed (docs/deliverability.md).
      sendsTo('webhookEvents'),
    ],
  },
  {
    name: 'webhooks',
    entry: 'functions/api/webhooks/handler.ts',
    capabilities: ['platform', 'access', 'tenants', 'webhooks', 'messaging', 'secrets'],
    grants: [
      tableReadWrite,
      // Signing secrets are sealed at creation.
      secretsKeyEncrypt,
      // Replays re-enqueue a delivery.
      sendsTo('webhookDeliveries'),
    ],
  },
  {
    name: 'suppressions',
    entry: 'functions/api/suppressions/handler.ts',
    capabilities: ['platform', 'access', 'tenants', 'suppressions', 'mail-domains', 'address-validation'],
    grants: [tableReadWrite],
  },
  {
    name: 'attachments',
    entry: 'functions/api/attachments/handler.ts',
    capabilities: ['platform', 'access', 'emails', 'blobs'],
    grants: [
      tableReadWrite,
      // Presigned PUT URLs are signed with this function's role (s3:PutObject on uploads/); GET reads the object's size (HEAD).
      mailBucketReadWrite,
    ],
  },
  {
    // Received (inbound) email: list and read; attachments and the raw message by presigned GET URLs.
    name: 'received-emails',
    entry: 'functions/api/received-emails/handler.ts',
    capabilities: ['platform', 'access', 'tenants', 'domains', 'inbound', 'blobs'],
    grants: [
      tableRead,
      // Bodies and small attachments are read here; large ones and the raw message are signed for GET.
      mailBucketRead,
    ],
  },
  {
    // Templates: drafts, publishing, rendering previews (docs/templates.md). Sends read them from the emails group.
    name: 'templates',
    entry: 'functions/api/templates/handler.ts',
    capabilities: ['platform', 'access', 'tenants', 'templates'],
    grants: [tableReadWrite],
  },
  {
    // Automations: definitions, activate and pause, runs, and POST /events (docs/automations.md). An event
    // writes runs only: the table's stream hands their steps to the automation-steps worker.
    name: 'automations',
    entry: 'functions/api/automations/handler.ts',
    capabilities: ['platform', 'access', 'tenants', 'templates', 'automations'],
    grants: [tableReadWrite],
  },
  {
    // Imports from SendGrid, Postmark and Mailgun (docs/imports.md): each request works ~25 s against the
    // provider's API (outbound HTTPS) and writes domains, webhooks, templates and suppressions through
    // the same use cases as their own groups.
    name: 'migrations',
    entry: 'functions/api/migrations/handler.ts',
    capabilities: [
      'platform',
      'access',
      'tenants',
      'domains',
      'templates',
      'suppressions',
      'webhooks',
      'imports',
      'import-providers',
      'secrets',
    ],
    // Each imported domain generates a DKIM key (as POST /domains) within the request's ~25 s budget (docs/deploy.md).
    memoryMb: 1024,
    grants: [
      tableReadWrite,
      // New domains get a sealed DKIM key and imported webhooks a sealed signing secret: seal only.
      secretsKeyEncrypt,
    ],
  },
  {
    // Public (no API key: the signed token is the authority): one-click unsubscribe and its confirmation
    // page, the open pixel and the click redirect (docs/tracking.md). Tokens may be up to 4 KB long.
    name: 'links',
    entry: 'functions/api/links/handler.ts',
    capabilities: ['platform', 'access', 'tenants', 'emails', 'suppressions', 'messaging', 'secrets'],
    grants: [
      // Reads emails and link keys; writes suppressions, opt-outs and opens/clicks on emails.
      tableReadWrite,
      // Opens link keys (created by the send worker or the admin CLI, never here).
      secretsKeyDecrypt,
      // contact.unsubscribed, email.opened, email.clicked.
      sendsTo('webhookEvents'),
    ],
  },
  {
    // The web dashboard (docs/dashboard.md): sign-in, sign-out and sessions under /dashboard (no API key:
    // the session cookie), its pages (keys, webhooks, tenants, templates, ...: the same use cases as the
    // groups they mirror), and the spec's session doors /api/events and /api/webhooks, which run the
    // automations group's POST /events and the webhooks group's routes behind session authentication.
    // The emails, received-email and domain pages are functions of their own (below), so no dashboard
    // function bundles every AWS client. Each one's grants are what its use cases need
    // (test/infra/default-stack/dashboard-group.ts names each one's source).
    name: 'dashboard',
    entry: 'functions/api/dashboard/handler.ts',
    capabilities: [
      'platform',
      'access',
      'tenants',
      'templates',
      'emails',
      'usage',
      'suppressions',
      'webhooks',
      'automations',
      'team',
      'imports',
      'messaging',
      'secrets',
      'oidc',
    ],
    pages: ['ANY /dashboard', 'ANY /dashboard/{proxy+}'],
    // Light pages (~6 ms of CPU each, ~75 ms cold): the default 512 MB (docs/deploy.md, "Memory sizing").
    grants: [
      // Users, sessions, sign-in counters; every page's records (keys, webhooks, runs, ...).
      tableReadWrite,
      // Webhook signing secrets are sealed at creation (as the webhooks group); the OpenID Connect client
      // secret (OIDC_CLIENT_SECRET_SEALED, docs/dashboard.md) is opened on the first OIDC sign-in.
      secretsKeyEncryptDecrypt,
      // Replaying a webhook delivery re-enqueues it (as the webhooks group).
      sendsTo('webhookDeliveries'),
    ],
  },
  {
    // The dashboard's Validate addresses page (docs/deliverability.md, "Address validation"): a function of its
    // own, so the disposable domains list (~170 KB) stays out of the other dashboard bundles. DNS is UDP/TCP
    // to the resolvers (no grant).
    name: 'dashboard-validations',
    entry: 'functions/api/dashboard-validations/handler.ts',
    capabilities: ['platform', 'access', 'tenants', 'suppressions', 'team', 'mail-domains', 'address-validation'],
    pages: ['ANY /dashboard/validations'],
    grants: [
      // Sessions; the hourly validation allowance's counter; suppressions and tenants read.
      tableReadWrite,
    ],
  },
  {
    // The dashboard's emails and received-email pages (docs/dashboard.md): the most specific routes win,
    // so API Gateway sends these paths here rather than to 'dashboard'. The same session.
    name: 'dashboard-emails',
    entry: 'functions/api/dashboard-emails/handler.ts',
    capabilities: ['platform', 'access', 'tenants', 'domains', 'emails', 'inbound', 'team', 'blobs'],
    pages: ['ANY /dashboard/emails', 'ANY /dashboard/emails/{proxy+}', 'ANY /dashboard/received', 'ANY /dashboard/received/{proxy+}'],
    // The page a signed-in user lands on: its list, search and charts ~13 ms of CPU, ~95 ms cold (docs/deploy.md, "Memory sizing").
    memoryMb: 1024,
    grants: [
      // Sessions; emails, their events and received emails; the test send's record (the outbox relay enqueues it).
      tableReadWrite,
      // The test send stores large bodies; an email's page reads its body or raw message; received email
      // pages read bodies and sign download links (as the emails and received-emails groups).
      mailBucketReadWrite,
    ],
  },
  {
    // The dashboard's forms that send through the send core (docs/dashboard.md): the emails page's test send
    // (/dashboard/emails/test: the most specific route wins over dashboard-emails') and the members page's
    // invite form (it may email the invitation). A function of its own, so the page functions hold no send core
    // (dashboard-emails had no room left under the 1 MiB bundle limit).
    name: 'dashboard-send',
    entry: 'functions/api/dashboard-send/handler.ts',
    capabilities: [...SENDING_STACK, 'team', 'mail-domains', 'blobs'],
    pages: ['ANY /dashboard/emails/test', 'ANY /dashboard/invitations', 'ANY /dashboard/invitations/{proxy+}'],
    grants: [
      tableReadWrite,
      // A sent email's body over INLINE_BODY_LIMIT goes to the bucket.
      mailBucketReadWrite,
    ],
  },
  {
    // The dashboard's domain pages (docs/dashboard.md): add, verify, apply DNS, as the domains group.
    name: 'dashboard-domains',
    entry: 'functions/api/dashboard-domains/handler.ts',
    capabilities: [
      'platform',
      'access',
      'tenants',
      'domains',
      'team',
      'deliverability',
      'mta-sts-hosting',
      'link-domains',
      'messaging',
      'ses',
      'secrets',
      'dns-apply',
      'webhooks',
    ],
    pages: ['ANY /dashboard/domains', 'ANY /dashboard/domains/{proxy+}'],
    // Adding a domain generates its 2048-bit DKIM key, as POST /domains (docs/deploy.md, "Memory sizing").
    memoryMb: 1024,
    grants: [
      tableReadWrite,
      // DKIM keys are sealed at creation and opened to sign the verification probe; stored DNS host
      // credentials are opened to apply (as the domains group).
      secretsKeyEncryptDecrypt,
      // Verify and Apply DNS: the SES identity of a verified domain, its SES tenant association, and
      // Route 53 records with the function's own role.
      route53Records,
      sesManageIdentities,
      sesManageTenants,
      // The domain page's "Check now": domain.health_changed (as the domains group).
      sendsTo('webhookEvents'),
    ],
  },
  {
    // The API's OpenAPI 3.1 document (docs/openapi.json, written by `npm run openapi`) and the reference
    // page rendered from it. Public, and touches nothing: no grants.
    name: 'reference',
    entry: 'functions/api/reference/handler.ts',
    capabilities: [],
    grants: [],
  },
];
