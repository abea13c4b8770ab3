/** The key layout of accounts, their keys and counters, and the dashboard's users and sign-in (./entity-layout.ts). */
import { auditPartition } from '../audit-log';
import { ownerCounterKey } from '../dashboard-users';
import { invitationKey, invitationsByAccount } from '../invitations';
import type { LayoutArea } from './entity-layout';

export const ACCOUNTS: LayoutArea = {
  title: 'Accounts, keys and sign-in',
  entities: [
    {
      item: 'account',
      description:
        '`status` absent or `active`, `paused` with `paused_reason`, `paused_at`, `pause_source`, `pause_figures`: the reputation guard',
      pk: 'ACCOUNT#<acc>',
      sk: 'ACCOUNT',
      built: (k, v) => [k.account(v.acc)],
    },
    {
      item: 'account email guard',
      description: "uniqueness of the owner email: put with `attribute_not_exists` in the account's transaction",
      pk: 'ACCOUNTEMAIL#<email>',
      sk: 'ACCOUNTEMAIL',
      built: (k, v) => [k.accountEmail(v.email)],
    },
    {
      item: 'API key (listing)',
      description: 'written and deleted with its lookup item in one transaction',
      pk: 'ACCOUNT#<acc>',
      sk: 'APIKEY#<key>',
      built: (k, v) => [k.apiKey(v.acc, v.key), k.apiKeyPrefix(v.acc)],
    },
    {
      item: 'API key (lookup by hash)',
      description: 'also SMTP credentials, `kind: smtp`; only the SHA-256 of the secret is stored',
      pk: 'APIKEYHASH#<sha256>',
      sk: 'APIKEYHASH',
      built: (k, v) => [k.apiKeyHash(v.sha256)],
    },
    {
      item: 'SMTP credential (listing)',
      description: 'its lookup item is an API key lookup item (`kind: smtp`)',
      pk: 'ACCOUNT#<acc>',
      sk: 'SMTPCRED#<smtp>',
      built: (k, v) => [k.smtpCredential(v.acc, v.smtp), k.smtpCredentialPrefix(v.acc)],
    },
    {
      item: 'counters',
      description:
        "an account's tenants, domains, templates, automations, webhooks and hosted MTA-STS policies: atomic `ADD` with a limit condition (the plan's limit), in the transaction that creates or deletes one",
      pk: 'ACCOUNT#<acc>',
      sk: ['COUNTER#TENANTS', 'COUNTER#DOMAINS', 'COUNTER#TEMPLATES', 'COUNTER#AUTOMATIONS', 'COUNTER#WEBHOOKS', 'COUNTER#MTA_STS'],
      built: (k, v) => ['TENANTS', 'DOMAINS', 'TEMPLATES', 'AUTOMATIONS', 'WEBHOOKS', 'MTA_STS'].map((what) => k.counter(v.acc, what)),
    },
    {
      item: 'dashboard owners counter',
      description:
        "how many owners the account's dashboard users count (`owners`): every write that makes, demotes or removes an owner is conditional on it",
      pk: 'ACCOUNT#<acc>',
      sk: 'DASHOWNERS',
      built: (_, v) => [ownerCounterKey(v.acc)],
    },
    {
      item: 'dashboard user',
      description:
        'email unique per deployment by the key (the sign-in finds it with one GetItem); scrypt hash with its parameters; role `owner`; [dashboard.md](../dashboard.md)',
      pk: 'DASHUSER#<email>',
      sk: 'DASHUSER',
      indexes: [{ index: 'GSI1', pk: 'ACCOUNT#<acc>#DASHUSERS', sk: '<usr>' }],
      built: (k, v) => [{ ...k.dashboardUser(v.email), GSI1PK: k.dashboardUsersByAccount(v.acc), GSI1SK: v.usr }],
    },
    {
      item: 'dashboard invitation',
      description:
        "an invitation to the account's dashboard, keyed by the SHA-256 of its link's token; [dashboard.md](../dashboard.md#teams-and-roles)",
      pk: 'DASHINVITE#<sha256(token)>',
      sk: 'DASHINVITE',
      indexes: [{ index: 'GSI1', pk: 'ACCOUNT#<acc>#DASHINVITES', sk: '<inv>' }],
      built: (_, v) => [{ ...invitationKey(v['sha256(token)']), GSI1PK: invitationsByAccount(v.acc), GSI1SK: v.inv }],
    },
    {
      item: 'dashboard session',
      description: "only the cookie token's SHA-256; user, account, CSRF token, times; TTL at the earlier expiry",
      pk: 'SESSION#<sha256(token)>',
      sk: 'SESSION',
      built: (k, v) => [k.session(v['sha256(token)'])],
    },
    {
      item: 'OpenID Connect sign-in under way',
      description:
        'state, nonce, PKCE verifier, redirect URI, `next`; used once; TTL 10 minutes; [dashboard.md](../dashboard.md#sign-in-with-openid-connect)',
      pk: 'OIDCFLOW#<sha256(flow cookie token)>',
      sk: 'OIDCFLOW',
      built: (k, v) => [k.oidcFlow(v['sha256(flow cookie token)'])],
    },
    {
      item: 'rate-limit window',
      description:
        "one fixed-window request counter per account and limit (API rate limits), its own partition, not the account's; TTL; the dashboard sign-in's per email and per IP: `RATELIMIT#email:<sha256>#signInPerEmail`, `RATELIMIT#ip:<address>#signInPerIp`; the SMTP relay's failed logins per client address and per password tried, shared by every relay task: `RATELIMIT#ip:<address>#smtpAuthFailures`, `RATELIMIT#cred:<sha256>#smtpAuthFailures`, [smtp.md](../smtp.md#failed-logins)",
      pk: 'RATELIMIT#<acc>#<limit name>',
      sk: 'WINDOW#<start epoch s>',
      built: (k, v) => [k.rateLimitWindow(v.acc, v['limit name'], Number(v['start epoch s']))],
    },
    {
      item: 'audit record',
      description:
        'one per change, append-only (a conditional put, never updated); TTL `AUDIT_RETENTION_DAYS` after its write; the shard (0-3) from its id, a listing merges the four; [audit-log.md](../audit-log.md)',
      pk: 'AUDIT#<acc>#<shard>',
      sk: '<aud>',
      built: (_, v) => [{ PK: auditPartition(v.acc, 3), SK: v.aud }],
    },
    {
      item: 'DNS host credentials',
      description: 'DNS apply; sealed JSON, a hint',
      pk: 'ACCOUNT#<acc>',
      sk: 'DNSPROVIDER#<route53|cloudflare>',
      built: (k, v) => [k.dnsProvider(v.acc, v['route53|cloudflare']), k.dnsProviderPrefix(v.acc)],
    },
    {
      item: 'link signing key',
      description: '32 bytes sealed; one service-wide set, never changed: rotation adds a kid',
      pk: 'LINKKEYS',
      sk: 'KEY#<kid, zero-padded>',
      built: (k, v) => [k.linkKey(v.kid), { PK: k.linkKeys() }],
    },
  ],
};
