/**
 * What a SendGrid account of the provider emulator holds (SendgridSeed), in SendGrid's own wire shapes
 * (field names and types as the real API answers them; see /work/shared/research/providers/*.md), so a
 * seed is a list of raw SendGrid objects the emulator (./routes.ts, ./operations/) serves as they are. Plus
 * `sendgridWebhook`, the builder of an event webhook whose most fields are the same in every account
 * (shared by the demo accounts and the test fixtures).
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
