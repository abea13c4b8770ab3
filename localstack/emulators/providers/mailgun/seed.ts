/**
 * What a Mailgun account of the provider emulator holds (MailgunSeed), in Mailgun's own wire shapes
 * (field names and types as the real API answers them; see /work/shared/research/providers/*.md), so a
 * seed is a list of raw Mailgun objects the emulator (./routes.ts, ./operations/) serves as they are. Plus
 * `mailgunDomain`, the builder of a custom sending domain whose most fields are the same in every
 * account (shared by the demo accounts and the test fixtures).
 */

// ---------- Mailgun (snake_case, camelCase on templates/whitelists, RFC 2822 dates) ----------

export interface MailgunDomain {
  created_at: string;
  id: string;
  is_disabled: boolean;
  name: string;
  require_tls: boolean;
  skip_verification: boolean;
  smtp_login: string;
  spam_action: 'disabled' | 'block' | 'tag';
  state: 'active' | 'unverified' | 'disabled';
  type: 'sandbox' | 'custom';
  web_prefix: string;
  web_scheme: 'http' | 'https';
  wildcard: boolean;
  use_automatic_sender_security: boolean;
}
export interface MailgunDnsRecord {
  cached: string[];
  is_active: boolean;
  name?: string;
  priority?: string;
  record_type: 'TXT' | 'CNAME' | 'MX';
  valid: 'valid' | 'unknown' | 'invalid';
  value: string;
}
export interface MailgunBounce {
  address: string;
  code: string;
  error: string;
  created_at: string;
}
export interface MailgunComplaint {
  address: string;
  created_at: string;
  count?: number;
}
export interface MailgunUnsubscribe {
  address: string;
  /** Current shape; `tag` is the legacy single-string shape. */
  tags?: string[];
  tag?: string;
  created_at: string;
  id?: string;
}
export interface MailgunWhitelist {
  value: string;
  reason: string;
  type: 'address' | 'domain';
  createdAt: string;
}
export interface MailgunTemplateVersion {
  tag: string;
  template: string;
  engine: 'handlebars' | 'go';
  mjml: string;
  createdAt: string;
  comment: string;
  active: boolean;
  id: string;
  headers?: Record<string, string>;
}
export interface MailgunTemplate {
  name: string;
  description: string;
  createdAt: string;
  createdBy: string;
  id: string;
  versions: MailgunTemplateVersion[];
}
/** GET /v3/domains/{domain}/webhooks `webhooks`: event name -> URLs (`urls`, or the legacy `url`). */
export type MailgunDomainWebhooks = Record<string, { urls?: string[]; url?: string }>;
export interface MailgunAccountWebhook {
  webhook_id: string;
  description: string;
  url: string;
  event_types: string[];
  created_at: string;
}
export interface MailgunDomainSeed {
  domain: MailgunDomain;
  receiving_dns_records: MailgunDnsRecord[];
  sending_dns_records: MailgunDnsRecord[];
  bounces?: MailgunBounce[];
  complaints?: MailgunComplaint[];
  unsubscribes?: MailgunUnsubscribe[];
  whitelists?: MailgunWhitelist[];
  templates?: MailgunTemplate[];
  webhooks?: MailgunDomainWebhooks;
}
export interface MailgunSeed {
  domains: MailgunDomainSeed[];
  /** GET /v1/webhooks (account level). */
  account_webhooks?: MailgunAccountWebhook[];
}

// ---------- Builders ----------

/** A custom Mailgun sending domain (its /v4/domains entry). */
export function mailgunDomain(name: string, id: string, state: MailgunDomain['state'], created_at: string): MailgunDomain {
  return {
    created_at,
    id,
    is_disabled: false,
    name,
    require_tls: false,
    skip_verification: false,
    smtp_login: `postmaster@${name}`,
    spam_action: 'disabled',
    state,
    type: 'custom',
    web_prefix: 'email',
    web_scheme: 'https',
    wildcard: false,
    use_automatic_sender_security: false,
  };
}
