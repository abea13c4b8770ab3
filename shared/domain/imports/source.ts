/**
 * What an import reads from the provider a team is leaving, in one shape for all three providers
 * (SendGrid, Postmark, Mailgun): the records the `ProviderSource` port (shared/ports/provider-source.ts) yields. Adapters
 * (shared/adapters/providers/) speak each provider's API (auth, pagination, rate limits, payload shapes) and
 * answer these records; the mapping rules (shared/domain/imports/) and the import use case never see
 * a provider payload. Nothing here is stored: the provider key lives only as long as one request.
 */

export const PROVIDERS = ['sendgrid', 'postmark', 'mailgun'] as const;
export type ProviderName = (typeof PROVIDERS)[number];

/** Each provider's name for people (messages, reports, code changes). */
export const PROVIDER_LABELS: Record<ProviderName, string> = { sendgrid: 'SendGrid', postmark: 'Postmark', mailgun: 'Mailgun' };

export const IMPORT_RESOURCES = ['domains', 'webhooks', 'templates', 'suppressions'] as const;
export type ImportResource = (typeof IMPORT_RESOURCES)[number];

export type ProviderRegion = 'us' | 'eu';

/** What a request gives to reach the provider; used for that request only, never stored or logged. */
export interface ProviderCredentials {
  provider: ProviderName;
  /** SendGrid API key, Postmark server token, Mailgun private API key. */
  apiKey: string;
  /** Postmark only: the account token (domains are account-level there). */
  accountApiKey?: string;
  /** SendGrid and Mailgun: which API host (us is the default). */
  region: ProviderRegion;
}

/** One page of a provider list. `next` is an opaque token to pass back for the next page; null at the end. */
export interface SourcePage<T> {
  items: T[];
  next: string | null;
}

/** A DNS record the provider asked the domain owner to publish (kept in dns_plan's keep_old_records advice). */
export interface SourceDnsRecord {
  type: 'TXT' | 'CNAME' | 'MX';
  /** Fully qualified host name, no trailing dot. */
  host: string;
  value: string;
}

export interface SourceDomain {
  /** The provider's id for the domain (SendGrid numeric id, Postmark ID, Mailgun id or name). */
  source_id: string;
  /** Lower-case domain name. */
  name: string;
  /** Whether the provider considers it verified/active. */
  verified: boolean;
  records: SourceDnsRecord[];
}

export interface SourceWebhook {
  source_id: string;
  url: string;
  /**
   * The provider's own event names this endpoint receives, normalised to the mapping vocabulary of
   * PROVIDER_EVENTS (e.g. SendGrid `spam_report` flag -> `spam_report`; Postmark `Bounce` trigger ->
   * `bounce`; Mailgun `permanent_fail` -> `permanent_fail`). Unknown names are passed through as written.
   */
  events: string[];
  enabled: boolean;
}

/**
 * The provider event vocabulary the webhook mapping (spec rule 6) understands, per provider. Adapters
 * emit these names; the mapping turns them into our event types and lists the rest as unmapped_events.
 */
export const PROVIDER_EVENTS = {
  sendgrid: [
    'processed',
    'dropped',
    'delivered',
    'deferred',
    'bounce',
    'open',
    'click',
    'spam_report',
    'unsubscribe',
    'group_unsubscribe',
    'group_resubscribe',
    'account_status_change',
  ],
  postmark: ['delivery', 'bounce', 'spam_complaint', 'open', 'click', 'subscription_change', 'inbound'],
  mailgun: ['accepted', 'delivered', 'opened', 'clicked', 'unsubscribed', 'complained', 'permanent_fail', 'temporary_fail'],
} as const satisfies Record<ProviderName, readonly string[]>;

/** Template syntaxes the conversion (spec rule 4) knows. */
export type TemplateSyntax = 'handlebars' | 'mustachio' | 'go' | 'sendgrid_legacy';

/** A template's list entry: enough to decide whether to fetch it. */
export interface SourceTemplateSummary {
  source_id: string;
  name: string;
  /** The provider's alias when it has one (Postmark Alias, Mailgun name); null otherwise. */
  alias: string | null;
  /** Layouts are merged into the templates that use them, never imported on their own. */
  is_layout: boolean;
}

/** A template's active content, with its layout (if any) fetched too, ready for conversion. */
export interface SourceTemplate {
  source_id: string;
  name: string;
  alias: string | null;
  subject: string | null;
  html: string | null;
  text: string | null;
  syntax: TemplateSyntax;
  /** The layout it is wrapped in (Postmark `LayoutTemplate`), with its `{{{@content}}}` placeholder intact. */
  layout: { alias: string; html: string | null; text: string | null } | null;
}

/**
 * What a provider list entry says about an address. The suppression rules (spec rules 1-3) decide what
 * becomes a suppression (and with which reason), a product opt-out, or a skipped entry.
 */
export type SourceSuppressionKind =
  | 'hard_bounce' // permanent failure of the address (5xx)
  | 'soft_bounce' // temporary failure (4xx) found on a bounce list
  | 'block' // refused because of the provider's sending servers or content, not the address
  | 'complaint'
  | 'invalid' // the provider found the address invalid
  | 'unsubscribe' // unsubscribed from all mail
  | 'manual' // added by the customer (API/UI) or the provider's staff
  | 'scoped_opt_out'; // unsubscribed from a group, broadcast stream or tag only

export interface SourceSuppression {
  /** As the provider has it (the rules normalise it). */
  email: string;
  kind: SourceSuppressionKind;
  /** The group, stream or tag of a scoped opt-out; the SMTP status or code of a bounce; else null. */
  detail: string | null;
  /** ISO 8601, or null when the provider gives none. */
  created_at: string | null;
}

/**
 * One suppression list to walk, in the order the import walks them: lists whose entries win (bounces,
 * complaints) come before those they win over (unsubscribes), so "a bounce or complaint wins over an
 * unsubscribe" (spec rule 3) holds without remembering addresses.
 */
export interface SuppressionListRef {
  /** Stable id the adapter understands (e.g. `bounces`, `stream:outbound:HardBounce`, `domain:mg.example.com:unsubscribes`). */
  id: string;
  /** For people: "SendGrid bounces", "Postmark stream outbound, hard bounces". */
  label: string;
}
