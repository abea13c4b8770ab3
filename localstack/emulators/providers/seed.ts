/**
 * What a provider emulator account holds, in each provider's own wire shapes (field names and types as
 * the real APIs answer them; see /work/shared/research/providers/*.md), so a seed is a list of raw
 * provider objects the emulator serves as they are. Plus builders of the objects whose most fields are
 * the same in every account (shared by the demo accounts and the test fixtures), and
 * `syntheticSuppressions`, the generator of N deterministic entries for volume tests.
 */

// ---------- SendGrid (snake_case, unix-second timestamps) ----------

export interface SendgridBounce {
  created: number;
  email: string;
  reason: string;
  status: string;
}
export type SendgridBlock = SendgridBounce;
export interface SendgridSpamReport {
  created: number;
  email: string;
  ip: string;
}
export interface SendgridInvalidEmail {
  created: number;
  email: string;
  reason: string;
}
export interface SendgridUnsubscribe {
  created: number;
  email: string;
}
export interface SendgridAsmGroup {
  id: number;
  name: string;
  description: string;
  is_default: boolean;
}
export interface SendgridTemplateVersion {
  id: string;
  user_id?: number;
  template_id: string;
  active: 0 | 1;
  name: string;
  html_content?: string;
  plain_content?: string;
  generate_plain_content: boolean;
  subject: string;
  updated_at: string; // "YYYY-MM-DD HH:MM:SS"
  editor: 'code' | 'design';
  thumbnail_url?: string;
  test_data?: string;
}
export interface SendgridTemplate {
  id: string; // d-<32 hex> (dynamic) or a UUID (legacy)
  name: string;
  generation: 'legacy' | 'dynamic';
  updated_at: string;
  versions: SendgridTemplateVersion[];
}
export interface SendgridDnsRecord {
  valid: boolean;
  type: 'cname' | 'mx' | 'txt';
  host: string;
  data: string;
}
export interface SendgridAuthenticatedDomain {
  id: number;
  user_id: number;
  subdomain: string;
  domain: string;
  username: string;
  ips: string[];
  custom_spf: boolean;
  default: boolean;
  legacy: boolean;
  automatic_security: boolean;
  valid: boolean;
  /** mail_cname/dkim1/dkim2 (automatic security) or mail_server/subdomain_spf/domain_spf/dkim (manual). */
  dns: Record<string, SendgridDnsRecord>;
}
export interface SendgridEventWebhook {
  id: string;
  enabled: boolean;
  url: string;
  friendly_name?: string | null;
  processed: boolean;
  dropped: boolean;
  delivered: boolean;
  deferred: boolean;
  bounce: boolean;
  open: boolean;
  click: boolean;
  spam_report: boolean;
  unsubscribe: boolean;
  group_unsubscribe: boolean;
  group_resubscribe: boolean;
  /** Answered only with ?include=account_status_change. */
  account_status_change?: boolean;
  oauth_client_id?: string;
  oauth_token_url?: string;
  public_key?: string;
  /** null marks the legacy (oldest) webhook. */
  created_date: string | null;
  updated_date: string | null;
}
export interface SendgridSeed {
  /** GET /v3/scopes; a full read set when absent. */
  scopes?: string[];
  bounces?: SendgridBounce[];
  blocks?: SendgridBlock[];
  spam_reports?: SendgridSpamReport[];
  invalid_emails?: SendgridInvalidEmail[];
  unsubscribes?: SendgridUnsubscribe[];
  /** Each group with its suppressed addresses (GET /v3/asm/groups/{id}/suppressions is a string array). */
  asm_groups?: { group: SendgridAsmGroup; suppressions: string[] }[];
  templates?: SendgridTemplate[];
  domains?: SendgridAuthenticatedDomain[];
  webhooks?: SendgridEventWebhook[];
  /**
   * 'multiple' (default): GET …/event/settings/all answers. 'legacy': it answers 404 and only the old
   * single-webhook GET …/event/settings does (the oldest webhook).
   */
  webhook_api?: 'multiple' | 'legacy';
}

// ---------- Postmark (PascalCase, ISO 8601 with offsets) ----------

export interface PostmarkServer {
  ID: number;
  Name: string;
  ServerLink: string;
  Color: string;
  SmtpApiActivated: boolean;
  RawEmailEnabled: boolean;
  DeliveryType: 'Live' | 'Sandbox';
  InboundAddress: string;
  InboundHookUrl: string;
  BounceHookUrl: string;
  OpenHookUrl: string;
  DeliveryHookUrl: string;
  ClickHookUrl: string;
  PostFirstOpenOnly: boolean;
  InboundDomain: string;
  InboundHash: string;
  InboundSpamThreshold: number;
  TrackOpens: boolean;
  TrackLinks: 'None' | 'HtmlAndText' | 'HtmlOnly' | 'TextOnly';
  IncludeBounceContentInHook: boolean;
  EnableSmtpApiErrorHooks: boolean;
  // ApiTokens is answered by the emulator: the account's server token.
}
export interface PostmarkMessageStream {
  ID: string;
  ServerID: number;
  Name: string;
  Description: string | null;
  MessageStreamType: 'Transactional' | 'Broadcasts' | 'Inbound';
  CreatedAt: string;
  UpdatedAt: string | null;
  ArchivedAt: string | null;
  ExpectedPurgeDate: string | null;
  SubscriptionManagementConfiguration: { UnsubscribeHandlingType: 'None' | 'Postmark' | 'Custom' };
}
export interface PostmarkSuppression {
  EmailAddress: string;
  SuppressionReason: 'HardBounce' | 'SpamComplaint' | 'ManualSuppression';
  Origin: 'Recipient' | 'Customer' | 'Admin';
  CreatedAt: string;
}
export interface PostmarkTemplate {
  TemplateId: number;
  Name: string;
  Alias: string | null;
  Subject: string | null;
  HtmlBody: string | null;
  TextBody: string | null;
  AssociatedServerId: number;
  Active: boolean;
  TemplateType: 'Standard' | 'Layout';
  /** Alias of the layout a Standard template is wrapped in. */
  LayoutTemplate: string | null;
}
export interface PostmarkDomainDetails {
  ID: number;
  Name: string;
  SPFVerified: boolean;
  SPFHost: string;
  SPFTextValue: string;
  DKIMVerified: boolean;
  WeakDKIM: boolean;
  DKIMHost: string;
  DKIMTextValue: string;
  DKIMPendingHost: string;
  DKIMPendingTextValue: string;
  DKIMRevokedHost: string;
  DKIMRevokedTextValue: string;
  SafeToRemoveRevokedKeyFromDNS: boolean;
  DKIMUpdateStatus: 'Pending' | 'Verified';
  ReturnPathDomain: string;
  ReturnPathDomainVerified: boolean;
  ReturnPathDomainCNAMEValue: string;
}
export interface PostmarkWebhook {
  ID: number;
  Url: string;
  MessageStream: string;
  HttpAuth: { Username: string | null; Password: string | null };
  HttpHeaders: { Name: string; Value: string }[];
  Triggers: {
    Open: { Enabled: boolean; PostFirstOpenOnly: boolean };
    Click: { Enabled: boolean };
    Delivery: { Enabled: boolean };
    Bounce: { Enabled: boolean; IncludeContent: boolean };
    SpamComplaint: { Enabled: boolean; IncludeContent: boolean };
    SubscriptionChange: { Enabled: boolean };
  };
}
export interface PostmarkSeed {
  server: PostmarkServer;
  message_streams: PostmarkMessageStream[];
  /** Suppressions per message stream id (GET /message-streams/{id}/suppressions/dump). */
  suppressions: Record<string, PostmarkSuppression[]>;
  templates: PostmarkTemplate[];
  /** Account-level (read with the account token). */
  domains: PostmarkDomainDetails[];
  webhooks: PostmarkWebhook[];
}

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

/** A SendGrid event webhook: every event flag off, enabled, unless `fields` says otherwise. */
export function sendgridWebhook(fields: Pick<SendgridEventWebhook, 'id' | 'url'> & Partial<SendgridEventWebhook>): SendgridEventWebhook {
  return {
    enabled: true,
    processed: false,
    dropped: false,
    delivered: false,
    deferred: false,
    bounce: false,
    open: false,
    click: false,
    spam_report: false,
    unsubscribe: false,
    group_unsubscribe: false,
    group_resubscribe: false,
    created_date: null,
    updated_date: null,
    ...fields,
  };
}

/** A live Postmark server `id` without hook URLs, unless `fields` says otherwise. */
export function postmarkServer(id: number, name: string, fields: Partial<PostmarkServer> = {}): PostmarkServer {
  return {
    ID: id,
    Name: name,
    ServerLink: `https://account.postmarkapp.com/servers/${id}/streams`,
    Color: 'blue',
    SmtpApiActivated: true,
    RawEmailEnabled: false,
    DeliveryType: 'Live',
    InboundAddress: '',
    InboundHookUrl: '',
    BounceHookUrl: '',
    OpenHookUrl: '',
    DeliveryHookUrl: '',
    ClickHookUrl: '',
    PostFirstOpenOnly: false,
    InboundDomain: '',
    InboundHash: '',
    InboundSpamThreshold: 0,
    TrackOpens: true,
    TrackLinks: 'HtmlAndText',
    IncludeBounceContentInHook: false,
    EnableSmtpApiErrorHooks: false,
    ...fields,
  };
}

/** A message stream of Postmark server `serverId`; archived when `archivedAt` is given. */
export function postmarkStream(
  serverId: number,
  id: string,
  name: string,
  type: PostmarkMessageStream['MessageStreamType'],
  archivedAt: string | null = null,
): PostmarkMessageStream {
  return {
    ID: id,
    ServerID: serverId,
    Name: name,
    Description: null,
    MessageStreamType: type,
    CreatedAt: '2024-07-01T00:00:00-04:00',
    UpdatedAt: null,
    ArchivedAt: archivedAt,
    ExpectedPurgeDate: archivedAt ? '2025-02-01T00:00:00-05:00' : null,
    SubscriptionManagementConfiguration: { UnsubscribeHandlingType: type === 'Broadcasts' ? 'Postmark' : 'None' },
  };
}

/** A Postmark webhook's triggers: the ones named true are on, the rest off. */
export function postmarkTriggers(on: Partial<Record<keyof PostmarkWebhook['Triggers'], boolean>>): PostmarkWebhook['Triggers'] {
  return {
    Open: { Enabled: on.Open ?? false, PostFirstOpenOnly: false },
    Click: { Enabled: on.Click ?? false },
    Delivery: { Enabled: on.Delivery ?? false },
    Bounce: { Enabled: on.Bounce ?? false, IncludeContent: false },
    SpamComplaint: { Enabled: on.SpamComplaint ?? false, IncludeContent: false },
    SubscriptionChange: { Enabled: on.SubscriptionChange ?? false },
  };
}

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

// ---------- Generator ----------

/** `prefix-00000@domain`, `prefix-00001@domain`, …: deterministic, and sorted as generated. */
export function syntheticAddress(prefix: string, domain: string, index: number): string {
  return `${prefix}-${String(index).padStart(6, '0')}@${domain}`;
}

/** `count` entries built from deterministic addresses (see syntheticAddress), e.g. 10,000 bounces. */
export function syntheticSuppressions<T>(
  count: number,
  options: { prefix: string; domain: string; start?: number },
  build: (email: string, index: number) => T,
): T[] {
  const start = options.start ?? 0;
  return Array.from({ length: count }, (_, i) => build(syntheticAddress(options.prefix, options.domain, start + i), start + i));
}
