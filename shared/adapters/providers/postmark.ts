/**
 * Postmark as a ProviderSource. The server token (X-Postmark-Server-Token) reads everything but domains,
 * which are account-level: they need the account token (X-Postmark-Account-Token). Single region.
 *
 * Decisions:
 * - checkAccess: GET /server.
 * - Domains: without accountApiKey, listDomains throws not_permitted (asking for account_api_key).
 *   GET /domains (count 100 + offset, TotalCount) then GET /domains/{id} per domain for its records:
 *   SPF TXT, DKIM TXT (current and pending), return-path CNAME. verified = DKIMVerified (SPFVerified is
 *   deprecated; the return path is advice, not a condition for sending).
 * - Suppression lists: the message streams (GET /message-streams?MessageStreamType=All&
 *   IncludeArchivedStreams=false, Inbound left out), in precedence order: every stream's HardBounce
 *   dump, then every stream's SpamComplaint, then every stream's ManualSuppression. Ids are
 *   `stream:<id>:HardBounce`, `stream:<id>:SpamComplaint`, `stream:<id>:ManualSuppression:<StreamType>`
 *   (the type decides what a recipient's own opt-out means). Kinds: HardBounce -> hard_bounce,
 *   SpamComplaint -> complaint, ManualSuppression with Origin Recipient -> unsubscribe on a
 *   Transactional stream, scoped_opt_out (detail = stream id) on a Broadcasts stream; Origin
 *   Customer/Admin -> manual. The dump is not paginated: the token is an offset into it, each page
 *   reads the dump (filtered by SuppressionReason; once per request: the source keeps the last one) and
 *   answers at most 1000 entries.
 * - Templates: TemplateType=All, Count 100 + Offset; layouts are listed with is_layout true.
 *   getTemplate reads /templates/{id} and, when LayoutTemplate is set, the layout by its alias; syntax
 *   mustachio. An empty Subject/HtmlBody/TextBody is none (null).
 * - Webhooks: GET /webhooks (triggers with Enabled true -> delivery, bounce, spam_complaint, open, click,
 *   subscription_change, in that order; other trigger names after, as written; source_id = ID; enabled =
 *   any trigger enabled) plus the legacy hook URLs of GET /server, grouped by URL (DeliveryHookUrl ->
 *   delivery, BounceHookUrl -> bounce, OpenHookUrl -> open, ClickHookUrl -> click, InboundHookUrl ->
 *   inbound; source_id `server-hook:<url>`). One page.
 */
import { ProviderError, type ProviderSource } from '../../ports/provider-source';
import type {
  ProviderCredentials,
  SourceDnsRecord,
  SourceDomain,
  SourcePage,
  SourceSuppression,
  SourceTemplate,
  SourceTemplateSummary,
  SourceWebhook,
  SuppressionListRef,
} from '../../domain/imports/source';
import { mapBounded } from '../../lib/concurrency';
import { joinUrl, type ProviderBaseUrls } from './base-urls';
import { ProviderHttp, type AdapterOptions } from './http';
import { expectArrayAt, expectObject, isObject, nonEmpty, text, type JsonObject } from './json';
import { hostName, isoFromDateText } from './normalise';
import { offsetOf, offsetToken } from './tokens';

const DOMAIN_PAGE = 100;
const TEMPLATE_PAGE = 100;
const DUMP_PAGE = 1000;
const DETAIL_CONCURRENCY = 4;

const REASONS = ['HardBounce', 'SpamComplaint', 'ManualSuppression'] as const;
type Reason = (typeof REASONS)[number];
const REASON_LABELS: Record<Reason, string> = {
  HardBounce: 'hard bounces',
  SpamComplaint: 'spam complaints',
  ManualSuppression: 'manual suppressions and unsubscribes',
};

const TRIGGER_EVENTS: Record<string, string> = {
  Delivery: 'delivery',
  Bounce: 'bounce',
  SpamComplaint: 'spam_complaint',
  Open: 'open',
  Click: 'click',
  SubscriptionChange: 'subscription_change',
};

const SERVER_HOOKS: [field: string, event: string][] = [
  ['DeliveryHookUrl', 'delivery'],
  ['BounceHookUrl', 'bounce'],
  ['OpenHookUrl', 'open'],
  ['ClickHookUrl', 'click'],
  ['InboundHookUrl', 'inbound'],
];

export class PostmarkSource implements ProviderSource {
  readonly provider = 'postmark' as const;
  private readonly server: ProviderHttp;
  private readonly account: ProviderHttp | null;
  private readonly base: string;

  constructor(credentials: ProviderCredentials, urls: ProviderBaseUrls, options: AdapterOptions = {}) {
    this.base = urls.postmark;
    const secrets = [credentials.apiKey, ...(credentials.accountApiKey ? [credentials.accountApiKey] : [])];
    this.server = new ProviderHttp({
      provider: 'postmark',
      headers: { 'x-postmark-server-token': credentials.apiKey, accept: 'application/json' },
      secrets,
      credentialName: 'server token',
      timeoutMs: options.timeoutMs,
    });
    this.account = credentials.accountApiKey
      ? new ProviderHttp({
          provider: 'postmark',
          headers: { 'x-postmark-account-token': credentials.accountApiKey, accept: 'application/json' },
          secrets,
          credentialName: 'account token',
          timeoutMs: options.timeoutMs,
        })
      : null;
  }

  async checkAccess(): Promise<void> {
    await this.server.get(this.url('/server'), { forbidden: 'auth' });
  }

  async listDomains(page: string | null): Promise<SourcePage<SourceDomain>> {
    const account = this.account;
    if (!account) {
      throw new ProviderError({
        kind: 'not_permitted',
        message: 'Postmark domains are account-level: give account_api_key (the account API token) to import them',
      });
    }
    const offset = offsetOf(page);
    const { body } = await account.get(this.url('/domains', { count: DOMAIN_PAGE, offset }));
    const listed = expectArrayAt(body, 'Domains', 'postmark', 'the domain list').filter(isObject);
    const total = Number(expectObject(body, 'postmark', 'the domain list').TotalCount ?? 0);
    const items = await mapBounded(listed, DETAIL_CONCURRENCY, async (d) => {
      const detail = await account.get(this.url(`/domains/${encodeURIComponent(text(d.ID) ?? '')}`));
      return toDomain(expectObject(detail.body, 'postmark', 'a domain'));
    });
    const seen = offset + listed.length;
    return { items, next: listed.length > 0 && seen < total ? offsetToken(seen) : null };
  }

  async listWebhooks(page: string | null): Promise<SourcePage<SourceWebhook>> {
    if (page !== null) return { items: [], next: null };
    const { body } = await this.server.get(this.url('/webhooks'));
    const webhooks = expectArrayAt(body, 'Webhooks', 'postmark', 'the webhook list').filter(isObject).flatMap(toWebhook);
    const server = await this.server.get(this.url('/server'));
    return { items: [...webhooks, ...serverHooks(expectObject(server.body, 'postmark', 'the server'))], next: null };
  }

  async listTemplates(page: string | null): Promise<SourcePage<SourceTemplateSummary>> {
    const offset = offsetOf(page);
    const { body } = await this.server.get(this.url('/templates', { Count: TEMPLATE_PAGE, Offset: offset, TemplateType: 'All' }));
    const listed = expectArrayAt(body, 'Templates', 'postmark', 'the template list').filter(isObject);
    const total = Number(expectObject(body, 'postmark', 'the template list').TotalCount ?? 0);
    const items = listed.map((t) => ({
      source_id: text(t.TemplateId) ?? '',
      name: text(t.Name) ?? '',
      alias: nonEmpty(t.Alias),
      is_layout: t.TemplateType === 'Layout',
    }));
    const seen = offset + listed.length;
    return { items, next: listed.length > 0 && seen < total ? offsetToken(seen) : null };
  }

  async getTemplate(sourceId: string): Promise<SourceTemplate> {
    const template = await this.template(sourceId);
    const layoutAlias = nonEmpty(template.LayoutTemplate);
    const layout = layoutAlias ? await this.template(layoutAlias) : null;
    return {
      source_id: text(template.TemplateId) ?? sourceId,
      name: text(template.Name) ?? '',
      alias: nonEmpty(template.Alias),
      subject: nonEmpty(template.Subject),
      html: nonEmpty(template.HtmlBody),
      text: nonEmpty(template.TextBody),
      syntax: 'mustachio',
      layout: layout && layoutAlias ? { alias: layoutAlias, html: nonEmpty(layout.HtmlBody), text: nonEmpty(layout.TextBody) } : null,
    };
  }

  async suppressionLists(): Promise<SuppressionListRef[]> {
    const { body } = await this.server.get(this.url('/message-streams', { MessageStreamType: 'All', IncludeArchivedStreams: 'false' }));
    const streams = expectArrayAt(body, 'MessageStreams', 'postmark', 'the message streams')
      .filter(isObject)
      .filter((s) => s.MessageStreamType !== 'Inbound')
      .map((s) => ({ id: text(s.ID) ?? '', type: text(s.MessageStreamType) ?? 'Transactional' }))
      .filter((s) => s.id !== '');
    return REASONS.flatMap((reason) =>
      streams.map((s) => ({
        id: reason === 'ManualSuppression' ? `stream:${s.id}:${reason}:${s.type}` : `stream:${s.id}:${reason}`,
        label: `Postmark stream ${s.id}, ${REASON_LABELS[reason]}`,
      })),
    );
  }

  async listSuppressions(list: string, page: string | null): Promise<SourcePage<SourceSuppression>> {
    const match = /^stream:([^:]+):(HardBounce|SpamComplaint|ManualSuppression)(?::([A-Za-z]+))?$/.exec(list);
    if (!match) throw new Error(`Unknown Postmark suppression list ${list}.`);
    const stream = match[1] ?? '';
    const reason = match[2] as Reason;
    const streamType = match[3] ?? 'Transactional';
    const offset = offsetOf(page);
    const rows = await this.dump(list, stream, reason);
    const items = rows.slice(offset, offset + DUMP_PAGE).flatMap((row) => {
      const entry = toSuppression(row, reason, stream, streamType);
      return entry ? [entry] : [];
    });
    return { items, next: offset + DUMP_PAGE < rows.length ? offsetToken(offset + DUMP_PAGE) : null };
  }

  /**
   * One dump, read once per source (one import request) and kept for its next pages: without it, a
   * dump of n entries would be read n/1000 times. A request starting inside a dump (a continuation)
   * reads it once more.
   */
  private lastDump: { list: string; rows: JsonObject[] } | null = null;

  private async dump(list: string, stream: string, reason: Reason): Promise<JsonObject[]> {
    if (this.lastDump?.list === list) return this.lastDump.rows;
    const { body } = await this.server.get(
      this.url(`/message-streams/${encodeURIComponent(stream)}/suppressions/dump`, { SuppressionReason: reason }),
    );
    const rows = expectArrayAt(body, 'Suppressions', 'postmark', 'a suppression dump')
      .filter(isObject)
      .filter((row) => row.SuppressionReason === reason);
    this.lastDump = { list, rows };
    return rows;
  }

  private async template(idOrAlias: string): Promise<JsonObject> {
    const { body } = await this.server.get(this.url(`/templates/${encodeURIComponent(idOrAlias)}`));
    return expectObject(body, 'postmark', 'a template');
  }

  private url(path: string, query: Record<string, string | number | undefined> = {}): string {
    return joinUrl(this.base, path, query);
  }
}

function toSuppression(row: JsonObject, reason: Reason, stream: string, streamType: string): SourceSuppression | null {
  const email = nonEmpty(row.EmailAddress);
  if (!email) return null;
  const created_at = isoFromDateText(row.CreatedAt);
  if (reason === 'HardBounce') return { email, kind: 'hard_bounce', detail: null, created_at };
  if (reason === 'SpamComplaint') return { email, kind: 'complaint', detail: null, created_at };
  if (row.Origin !== 'Recipient') return { email, kind: 'manual', detail: null, created_at };
  return streamType === 'Broadcasts'
    ? { email, kind: 'scoped_opt_out', detail: stream, created_at }
    : { email, kind: 'unsubscribe', detail: null, created_at };
}

function toDomain(d: JsonObject): SourceDomain {
  const records: SourceDnsRecord[] = [];
  const add = (type: SourceDnsRecord['type'], host: unknown, value: unknown) => {
    const h = nonEmpty(host);
    const v = nonEmpty(value);
    if (h && v) records.push({ type, host: hostName(h), value: v });
  };
  add('TXT', d.SPFHost, d.SPFTextValue);
  add('TXT', d.DKIMHost, d.DKIMTextValue);
  add('TXT', d.DKIMPendingHost, d.DKIMPendingTextValue);
  add('CNAME', d.ReturnPathDomain, d.ReturnPathDomainCNAMEValue);
  return { source_id: text(d.ID) ?? '', name: hostName(text(d.Name) ?? ''), verified: d.DKIMVerified === true, records };
}

function toWebhook(w: JsonObject): SourceWebhook[] {
  const url = nonEmpty(w.Url);
  if (!url) return [];
  const triggers = isObject(w.Triggers) ? w.Triggers : {};
  const enabled = Object.keys(triggers).filter((name) => isObject(triggers[name]) && (triggers[name] as JsonObject).Enabled === true);
  const known = Object.keys(TRIGGER_EVENTS);
  const events = [
    ...known.filter((name) => enabled.includes(name)).map((name) => TRIGGER_EVENTS[name] as string),
    ...enabled.filter((name) => !known.includes(name)),
  ];
  return [{ source_id: text(w.ID) ?? url, url, events, enabled: events.length > 0 }];
}

function serverHooks(server: JsonObject): SourceWebhook[] {
  const byUrl = new Map<string, string[]>();
  for (const [field, event] of SERVER_HOOKS) {
    const url = nonEmpty(server[field]);
    if (url) byUrl.set(url, [...(byUrl.get(url) ?? []), event]);
  }
  return [...byUrl].map(([url, events]) => ({ source_id: `server-hook:${url}`, url, events, enabled: true }));
}
