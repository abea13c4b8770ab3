/**
 * SendGrid (Web API v3) as a ProviderSource. Bearer auth; region eu reads https://api.eu.sendgrid.com.
 *
 * Decisions:
 * - checkAccess: GET /v3/scopes (401, or a 403 there, means the key is rejected).
 * - Suppression lists, in precedence order: bounces, spam_reports, invalid_emails, blocks, unsubscribes
 *   (global), then one list per unsubscribe group (GET /v3/asm/groups), id `group:<id>:<name>`.
 *   Bounces: status 5.x.x -> hard_bounce, 4.x.x -> soft_bounce (no status: the reason's leading SMTP
 *   code decides; hard_bounce when neither says), detail = status. spam_reports -> complaint,
 *   invalid_emails -> invalid, blocks -> block (detail = status), unsubscribes -> unsubscribe,
 *   group suppressions -> scoped_opt_out with detail = group name and no date (SendGrid gives none).
 *   The /v3/suppression lists are read 500 at a time by offset (bare arrays, no total): a page shorter
 *   than 500 is the last. A group's list is one unpaginated array; pages of 1000 are cut from it (the
 *   token is the offset; each page re-reads the array).
 * - Templates: generations=legacy,dynamic (the default would hide dynamic ones), page_size 200, the
 *   token is the page_token of _metadata.next. getTemplate reads /v3/templates/{id} and uses the active
 *   version (none active: no content); dynamic -> handlebars, legacy -> sendgrid_legacy. An empty
 *   subject is no subject (null).
 * - Domains: /v3/whitelabel/domains, 50 by offset, short page ends; records from both dns key sets
 *   (mail_cname/dkim1/dkim2 and mail_server/subdomain_spf/domain_spf/dkim); verified = `valid`.
 * - Webhooks: GET /v3/user/webhooks/event/settings/all?include=account_status_change; on 404 the legacy
 *   single-webhook GET /v3/user/webhooks/event/settings (source_id `legacy`). Events are the flags set
 *   true, in PROVIDER_EVENTS order, then any other true flag as written. Entries without a URL are skipped.
 */
import {
  PROVIDER_EVENTS,
  type ProviderCredentials,
  type SourceDnsRecord,
  type SourceDomain,
  type SourcePage,
  type SourceSuppression,
  type SourceSuppressionKind,
  type SourceTemplate,
  type SourceTemplateSummary,
  type SourceWebhook,
  type SuppressionListRef,
} from '../../domain/imports/source';
import type { ProviderSource } from '../../ports/provider-source';
import { joinUrl, type ProviderBaseUrls } from './base-urls';
import { ProviderHttp, type AdapterOptions } from './http';
import { expectArray, expectArrayAt, expectObject, isObject, nonEmpty, objectAt, text, type JsonObject } from './json';
import { dnsType, hostName, isoFromUnixSeconds } from './normalise';
import { offsetOf, offsetToken } from './tokens';

const SUPPRESSION_PAGE = 500;
const GROUP_PAGE = 1000;
const DOMAIN_PAGE = 50;
const TEMPLATE_PAGE = 200;

const LISTS = {
  bounces: 'SendGrid bounces',
  spam_reports: 'SendGrid spam reports',
  invalid_emails: 'SendGrid invalid emails',
  blocks: 'SendGrid blocks',
  unsubscribes: 'SendGrid global unsubscribes',
} as const;
type ListName = keyof typeof LISTS;

/** dns keys in the order records are reported; other keys follow in the order SendGrid gives them. */
const DNS_KEYS = ['mail_cname', 'dkim1', 'dkim2', 'mail_server', 'subdomain_spf', 'domain_spf', 'dkim'];
const NOT_EVENT_FLAGS = new Set(['enabled']);

export class SendgridSource implements ProviderSource {
  readonly provider = 'sendgrid' as const;
  private readonly http: ProviderHttp;
  private readonly base: string;

  constructor(credentials: ProviderCredentials, urls: ProviderBaseUrls, options: AdapterOptions = {}) {
    this.base = credentials.region === 'eu' ? urls.sendgridEu : urls.sendgrid;
    this.http = new ProviderHttp({
      provider: 'sendgrid',
      headers: { authorization: `Bearer ${credentials.apiKey}`, accept: 'application/json' },
      secrets: [credentials.apiKey],
      timeoutMs: options.timeoutMs,
    });
  }

  async checkAccess(): Promise<void> {
    await this.http.get(this.url('/v3/scopes'), { forbidden: 'auth' });
  }

  async listDomains(page: string | null): Promise<SourcePage<SourceDomain>> {
    const offset = offsetOf(page);
    const { body } = await this.http.get(this.url('/v3/whitelabel/domains', { limit: DOMAIN_PAGE, offset }));
    const items = expectArray(body, 'sendgrid', 'the domain list').filter(isObject).map(toDomain);
    return { items, next: items.length < DOMAIN_PAGE ? null : offsetToken(offset + DOMAIN_PAGE) };
  }

  async listWebhooks(page: string | null): Promise<SourcePage<SourceWebhook>> {
    if (page !== null) return { items: [], next: null };
    const all = await this.http.get(this.url('/v3/user/webhooks/event/settings/all', { include: 'account_status_change' }), {
      accept: [404],
    });
    if (all.status !== 404) {
      const items = expectArrayAt(all.body, 'webhooks', 'sendgrid', 'the webhook list').filter(isObject);
      return { items: items.flatMap((w) => toWebhook(w, text(w.id) ?? 'legacy')), next: null };
    }
    const { body } = await this.http.get(this.url('/v3/user/webhooks/event/settings'));
    return { items: toWebhook(expectObject(body, 'sendgrid', 'the webhook settings'), 'legacy'), next: null };
  }

  async listTemplates(page: string | null): Promise<SourcePage<SourceTemplateSummary>> {
    const query = { generations: 'legacy,dynamic', page_size: TEMPLATE_PAGE, page_token: page ?? undefined };
    const { body } = await this.http.get(this.url('/v3/templates', query));
    const result = expectArrayAt(body, 'result', 'sendgrid', 'the template list').filter(isObject);
    const items = result.map((t) => ({ source_id: text(t.id) ?? '', name: text(t.name) ?? '', alias: null, is_layout: false }));
    const next = nextPageToken(objectAt(body, '_metadata'));
    return { items: items.filter((t) => t.source_id !== ''), next: next === page ? null : next };
  }

  async getTemplate(sourceId: string): Promise<SourceTemplate> {
    const { body } = await this.http.get(this.url(`/v3/templates/${encodeURIComponent(sourceId)}`));
    const template = expectObject(body, 'sendgrid', 'the template');
    const versions = Array.isArray(template.versions) ? template.versions.filter(isObject) : [];
    const active = versions.find((v) => v.active === 1 || v.active === true) ?? null;
    return {
      source_id: text(template.id) ?? sourceId,
      name: text(template.name) ?? '',
      alias: null,
      subject: nonEmpty(active?.subject),
      html: nonEmpty(active?.html_content),
      text: nonEmpty(active?.plain_content),
      syntax: template.generation === 'dynamic' ? 'handlebars' : 'sendgrid_legacy',
      layout: null,
    };
  }

  async suppressionLists(): Promise<SuppressionListRef[]> {
    const { body } = await this.http.get(this.url('/v3/asm/groups'));
    const groups = expectArray(body, 'sendgrid', 'the unsubscribe groups').filter(isObject);
    return [
      ...(Object.keys(LISTS) as ListName[]).map((id) => ({ id, label: LISTS[id] })),
      ...groups.map((g) => ({
        id: `group:${text(g.id) ?? ''}:${text(g.name) ?? ''}`,
        label: `SendGrid unsubscribe group "${text(g.name) ?? ''}"`,
      })),
    ];
  }

  async listSuppressions(list: string, page: string | null): Promise<SourcePage<SourceSuppression>> {
    const offset = offsetOf(page);
    if (list.startsWith('group:')) return this.groupSuppressions(list, offset);
    if (!(list in LISTS)) throw new Error(`Unknown SendGrid suppression list ${list}.`);
    const { body } = await this.http.get(this.url(`/v3/suppression/${list}`, { limit: SUPPRESSION_PAGE, offset }));
    const rows = expectArray(body, 'sendgrid', `the ${list} list`).filter(isObject);
    const items = rows.flatMap((row) => {
      const entry = toSuppression(list as ListName, row);
      return entry ? [entry] : [];
    });
    return { items, next: rows.length < SUPPRESSION_PAGE ? null : offsetToken(offset + SUPPRESSION_PAGE) };
  }

  private async groupSuppressions(list: string, offset: number): Promise<SourcePage<SourceSuppression>> {
    const match = /^group:(\d+):(.*)$/s.exec(list);
    if (!match) throw new Error(`Unknown SendGrid suppression list ${list}.`);
    const id = match[1] ?? '';
    const name = match[2] ?? '';
    const { body } = await this.http.get(this.url(`/v3/asm/groups/${id}/suppressions`));
    const emails = expectArray(body, 'sendgrid', 'a group suppression list').filter((e): e is string => typeof e === 'string');
    const items = emails
      .slice(offset, offset + GROUP_PAGE)
      .map((email) => ({ email, kind: 'scoped_opt_out' as const, detail: name, created_at: null }));
    return { items, next: offset + GROUP_PAGE < emails.length ? offsetToken(offset + GROUP_PAGE) : null };
  }

  private url(path: string, query: Record<string, string | number | undefined> = {}): string {
    return joinUrl(this.base, path, query);
  }
}

function toSuppression(list: ListName, row: JsonObject): SourceSuppression | null {
  const email = nonEmpty(row.email);
  if (!email) return null;
  const created_at = isoFromUnixSeconds(row.created);
  const status = nonEmpty(row.status);
  const kinds: Record<ListName, SourceSuppressionKind> = {
    bounces: bounceKind(status, nonEmpty(row.reason)),
    spam_reports: 'complaint',
    invalid_emails: 'invalid',
    blocks: 'block',
    unsubscribes: 'unsubscribe',
  };
  const detail = list === 'bounces' || list === 'blocks' ? status : null;
  return { email, kind: kinds[list], detail, created_at };
}

/** 5.x.x hard, 4.x.x soft; without a status, the reason's leading SMTP code; hard when unknown. */
function bounceKind(status: string | null, reason: string | null): SourceSuppressionKind {
  const digit = status?.trim()[0] ?? reason?.trim()[0];
  return digit === '4' ? 'soft_bounce' : 'hard_bounce';
}

function toDomain(row: JsonObject): SourceDomain {
  const dns = isObject(row.dns) ? row.dns : {};
  const keys = [...DNS_KEYS.filter((k) => k in dns), ...Object.keys(dns).filter((k) => !DNS_KEYS.includes(k))];
  const records: SourceDnsRecord[] = [];
  for (const key of keys) {
    const record = dns[key];
    if (!isObject(record)) continue;
    const type = dnsType(record.type);
    const host = nonEmpty(record.host);
    const value = nonEmpty(record.data);
    if (type && host && value) records.push({ type, host: hostName(host), value });
  }
  return { source_id: text(row.id) ?? '', name: hostName(text(row.domain) ?? ''), verified: row.valid === true, records };
}

function toWebhook(settings: JsonObject, sourceId: string): SourceWebhook[] {
  const url = nonEmpty(settings.url);
  if (!url) return [];
  const known: readonly string[] = PROVIDER_EVENTS.sendgrid;
  const on = (key: string) => settings[key] === true;
  const events = [
    ...known.filter(on),
    ...Object.keys(settings).filter((key) => on(key) && !known.includes(key) && !NOT_EVENT_FLAGS.has(key)),
  ];
  return [{ source_id: sourceId, url, events, enabled: settings.enabled === true }];
}

/** The page_token inside _metadata.next (a full URL), or null on the last page. */
function nextPageToken(metadata: JsonObject | null): string | null {
  const next = nonEmpty(metadata?.next);
  if (!next) return null;
  try {
    return new URL(next).searchParams.get('page_token') || null;
  } catch {
    return null;
  }
}
