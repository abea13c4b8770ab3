/**
 * Mailgun as a ProviderSource. HTTP Basic auth `api:<key>`; region eu reads https://api.eu.mailgun.net
 * (domain data is region-bound). Suppressions, templates and domain webhooks are per sending domain.
 *
 * Decisions:
 * - checkAccess: GET /v4/domains?limit=1.
 * - The domain names (for suppression lists, templates and webhooks) come from /v4/domains (limit 100 +
 *   skip), sorted by name so tokens naming a domain stay meaningful; read once per adapter instance.
 * - Domains: /v4/domains (limit 100 + skip; total_count), then /v4/domains/{name} per domain (4 at a
 *   time): sending_dns_records and the receiving MX records (host = the domain) become records;
 *   verified = state "active"; source_id = id (name when missing).
 * - Suppression lists, in precedence order: every domain's bounces, then every domain's complaints,
 *   then every domain's unsubscribes; ids `domain:<name>:bounces|complaints|unsubscribes`. Whitelists
 *   are not suppressions (never read). Pages of 1000 follow paging.next (the token is the query of that
 *   URL, so the host and path always come from our configuration, never from a response); a page with
 *   no items ends the list (Mailgun keeps giving `next` on its last page).
 *   Bounces: error text mentioning a block, blacklist/blocklist, policy or spam -> block; otherwise
 *   code 4xx -> soft_bounce, else hard_bounce (Mailgun stores permanent failures; a missing code is 550);
 *   detail = code. Complaints -> complaint. Unsubscribes: tags ["*"] (or legacy tag "*") ->
 *   unsubscribe; other tags -> scoped_opt_out with detail = the tags joined by ",".
 * - Templates: per domain GET /v3/{domain}/templates (limit 100, paging.next, empty page -> next
 *   domain; a page may be empty while moving between domains); source_id `<domain>/<name>`, alias =
 *   name. getTemplate: GET /v3/{domain}/templates/{name}?active=yes; subject from the active version's
 *   headers Subject/subject; engine go -> go, else handlebars; Mailgun templates have no text part.
 * - Webhooks: one page per domain (GET /v3/domains/{domain}/webhooks, `urls` or legacy `url`; token
 *   `domain:<name>`), then one for the account (GET /v1/webhooks, token `account`; a 404 there means no
 *   account-level webhooks in this region). Tokens name domains, never positions, so a domain added
 *   or removed during an import neither shifts nor repeats the walk.
 *   One SourceWebhook per URL per source, with every event name that URL receives there, as written;
 *   source_id `domain:<name>:<url>` or `account:<url>`.
 */
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
import type { ProviderSource } from '../../ports/provider-source';
import { mapBounded } from '../../lib/concurrency';
import { joinUrl, type ProviderBaseUrls } from './base-urls';
import { ProviderHttp, type AdapterOptions } from './http';
import { arrayAt, expectArrayAt, expectObject, isObject, nonEmpty, objectAt, text, type JsonObject } from './json';
import { dnsType, hostName, isoFromDateText } from './normalise';
import { objectToken, offsetOf, offsetToken, parseObjectToken } from './tokens';

const DOMAIN_PAGE = 100;
const SUPPRESSION_PAGE = 1000;
const TEMPLATE_PAGE = 100;
const DETAIL_CONCURRENCY = 4;

const LISTS = ['bounces', 'complaints', 'unsubscribes'] as const;
type ListName = (typeof LISTS)[number];
const LIST_LABELS: Record<ListName, string> = { bounces: 'bounces', complaints: 'complaints', unsubscribes: 'unsubscribes' };

const ACCOUNT_PAGE = 'account';
const BLOCK_WORDS = /\b(block(ed|list|listed)?|blacklist(ed)?|policy|spam)/i;

export class MailgunSource implements ProviderSource {
  readonly provider = 'mailgun' as const;
  private readonly http: ProviderHttp;
  private readonly base: string;
  private names: Promise<string[]> | null = null;

  constructor(credentials: ProviderCredentials, urls: ProviderBaseUrls, options: AdapterOptions = {}) {
    this.base = credentials.region === 'eu' ? urls.mailgunEu : urls.mailgun;
    const basic = Buffer.from(`api:${credentials.apiKey}`, 'utf8').toString('base64');
    this.http = new ProviderHttp({
      provider: 'mailgun',
      headers: { authorization: `Basic ${basic}`, accept: 'application/json' },
      secrets: [credentials.apiKey, basic],
      timeoutMs: options.timeoutMs,
    });
  }

  async checkAccess(): Promise<void> {
    await this.http.get(this.url('/v4/domains', { limit: 1 }), { forbidden: 'auth' });
  }

  async listDomains(page: string | null): Promise<SourcePage<SourceDomain>> {
    const skip = offsetOf(page);
    const { items: listed, total } = await this.domainPage(skip);
    const items = await mapBounded(listed, DETAIL_CONCURRENCY, async (d) => {
      const name = text(d.name) ?? '';
      const { body } = await this.http.get(this.url(`/v4/domains/${encodeURIComponent(name)}`));
      return toDomain(expectObject(body, 'mailgun', 'a domain'), name);
    });
    const seen = skip + listed.length;
    return { items, next: listed.length === DOMAIN_PAGE && seen < total ? offsetToken(seen) : null };
  }

  async listWebhooks(page: string | null): Promise<SourcePage<SourceWebhook>> {
    const names = await this.domainNames();
    let domain: string | null;
    if (page === null) domain = names[0] ?? null;
    else if (page === ACCOUNT_PAGE) domain = null;
    else if (page.startsWith('domain:')) domain = page.slice('domain:'.length);
    else throw new Error('Invalid page token.');
    if (domain !== null) {
      const { body } = await this.http.get(this.url(`/v3/domains/${encodeURIComponent(domain)}/webhooks`));
      const following = domainAfter(names, domain);
      return { items: domainWebhooks(domain, objectAt(body, 'webhooks') ?? {}), next: following ? `domain:${following}` : ACCOUNT_PAGE };
    }
    const { status, body } = await this.http.get(this.url('/v1/webhooks'), { accept: [404] });
    return { items: status === 404 ? [] : accountWebhooks(arrayAt(body, 'webhooks') ?? []), next: null };
  }

  async listTemplates(page: string | null): Promise<SourcePage<SourceTemplateSummary>> {
    const names = await this.domainNames();
    const position: Record<string, unknown> = page === null ? { d: names[0], q: null } : parseObjectToken(page);
    const domain = typeof position.d === 'string' ? position.d : undefined;
    if (domain === undefined) return { items: [], next: null };
    const query = typeof position.q === 'string' ? withLimit(position.q, TEMPLATE_PAGE) : `limit=${TEMPLATE_PAGE}`;
    const { body } = await this.http.get(`${this.url(`/v3/${encodeURIComponent(domain)}/templates`)}?${query}`);
    const listed = expectArrayAt(body, 'items', 'mailgun', 'a template list').filter(isObject);
    const nextDomain = domainAfter(names, domain);
    const following = nextDomain === undefined ? null : objectToken({ d: nextDomain, q: null });
    if (listed.length === 0) return { items: [], next: following };
    const items = listed.flatMap((t) => {
      const name = nonEmpty(t.name);
      return name ? [{ source_id: `${domain}/${name}`, name, alias: name, is_layout: false }] : [];
    });
    const nextQuery = nextQueryOf(objectAt(body, 'paging'), query);
    return { items, next: nextQuery ? objectToken({ d: domain, q: nextQuery }) : following };
  }

  async getTemplate(sourceId: string): Promise<SourceTemplate> {
    const slash = sourceId.indexOf('/');
    if (slash <= 0) throw new Error(`Invalid Mailgun template id ${sourceId}.`);
    const domain = sourceId.slice(0, slash);
    const name = sourceId.slice(slash + 1);
    const path = `/v3/${encodeURIComponent(domain)}/templates/${encodeURIComponent(name)}`;
    const { body } = await this.http.get(this.url(path, { active: 'yes' }));
    const template = objectAt(body, 'template') ?? {};
    const version = objectAt(template, 'version');
    const headers = objectAt(version, 'headers');
    return {
      source_id: sourceId,
      name: text(template.name) ?? name,
      alias: text(template.name) ?? name,
      subject: nonEmpty(headers?.Subject) ?? nonEmpty(headers?.subject),
      html: nonEmpty(version?.template),
      text: null,
      syntax: version?.engine === 'go' ? 'go' : 'handlebars',
      layout: null,
    };
  }

  async suppressionLists(): Promise<SuppressionListRef[]> {
    const names = await this.domainNames();
    return LISTS.flatMap((list) => names.map((name) => ({ id: `domain:${name}:${list}`, label: `Mailgun ${name} ${LIST_LABELS[list]}` })));
  }

  async listSuppressions(list: string, page: string | null): Promise<SourcePage<SourceSuppression>> {
    const match = /^domain:(.+):(bounces|complaints|unsubscribes)$/.exec(list);
    if (!match) throw new Error(`Unknown Mailgun suppression list ${list}.`);
    const domain = match[1] ?? '';
    const name = match[2] as ListName;
    const query = page === null ? `limit=${SUPPRESSION_PAGE}` : withLimit(page, SUPPRESSION_PAGE);
    const { body } = await this.http.get(`${this.url(`/v3/${encodeURIComponent(domain)}/${name}`)}?${query}`);
    const rows = expectArrayAt(body, 'items', 'mailgun', `the ${name} of ${domain}`).filter(isObject);
    if (rows.length === 0) return { items: [], next: null };
    const items = rows.flatMap((row) => {
      const entry = toSuppression(name, row);
      return entry ? [entry] : [];
    });
    return { items, next: nextQueryOf(objectAt(body, 'paging'), query) };
  }

  /** All domain names, sorted; read once per adapter (a failed read is retried on the next call). */
  private domainNames(): Promise<string[]> {
    this.names ??= this.readDomainNames().catch((err: unknown) => {
      this.names = null;
      throw err;
    });
    return this.names;
  }

  private async readDomainNames(): Promise<string[]> {
    const names: string[] = [];
    for (let skip = 0; ; skip += DOMAIN_PAGE) {
      const { items, total } = await this.domainPage(skip);
      for (const d of items) {
        const name = nonEmpty(d.name);
        if (name) names.push(hostName(name));
      }
      if (items.length < DOMAIN_PAGE || skip + items.length >= total) break;
    }
    return [...new Set(names)].sort();
  }

  private async domainPage(skip: number): Promise<{ items: JsonObject[]; total: number }> {
    const { body } = await this.http.get(this.url('/v4/domains', { limit: DOMAIN_PAGE, skip }));
    const items = expectArrayAt(body, 'items', 'mailgun', 'the domain list').filter(isObject);
    const total = Number(expectObject(body, 'mailgun', 'the domain list').total_count ?? skip + items.length);
    return { items, total: Number.isFinite(total) ? total : skip + items.length };
  }

  private url(path: string, query: Record<string, string | number | undefined> = {}): string {
    return joinUrl(this.base, path, query);
  }
}

/** The first domain name after `domain` (names are sorted; `domain` may have gone meanwhile). */
function domainAfter(names: readonly string[], domain: string): string | undefined {
  return names.find((name) => name > domain);
}

/** The query of paging.next with our page size, or null when there is none or it would not move. */
function nextQueryOf(paging: JsonObject | null, current: string): string | null {
  const next = nonEmpty(paging?.next);
  if (!next) return null;
  let search: string;
  try {
    search = new URL(next).search.replace(/^\?/, '');
  } catch {
    return null;
  }
  const limit = new URLSearchParams(current).get('limit') ?? undefined;
  const query = limit ? withLimit(search, Number(limit)) : search;
  return query === current ? null : query;
}

function withLimit(query: string, limit: number): string {
  const params = new URLSearchParams(query);
  params.set('limit', String(limit));
  return params.toString();
}

function toSuppression(list: ListName, row: JsonObject): SourceSuppression | null {
  const email = nonEmpty(row.address);
  if (!email) return null;
  const created_at = isoFromDateText(row.created_at);
  if (list === 'complaints') return { email, kind: 'complaint', detail: null, created_at };
  if (list === 'unsubscribes') {
    const tags = Array.isArray(row.tags) ? row.tags.filter((t): t is string => typeof t === 'string') : [];
    const legacy = nonEmpty(row.tag);
    const all = legacy ? [...tags, legacy] : tags;
    if (all.length === 0 || all.includes('*')) return { email, kind: 'unsubscribe', detail: null, created_at };
    return { email, kind: 'scoped_opt_out', detail: all.join(','), created_at };
  }
  const code = text(row.code)?.trim() || null;
  const error = text(row.error) ?? '';
  const kind = BLOCK_WORDS.test(error) ? 'block' : code?.startsWith('4') ? 'soft_bounce' : 'hard_bounce';
  return { email, kind, detail: code, created_at };
}

function toDomain(body: JsonObject, fallbackName: string): SourceDomain {
  const domain = objectAt(body, 'domain') ?? {};
  const name = hostName(text(domain.name) ?? fallbackName);
  const records: SourceDnsRecord[] = [];
  const add = (raw: unknown, defaultHost: string) => {
    if (!isObject(raw)) return;
    const type = dnsType(raw.record_type);
    const host = nonEmpty(raw.name) ?? defaultHost;
    const value = nonEmpty(raw.value);
    if (type && value) records.push({ type, host: hostName(host), value });
  };
  for (const r of arrayAt(body, 'sending_dns_records') ?? []) add(r, name);
  for (const r of arrayAt(body, 'receiving_dns_records') ?? []) add(r, name);
  return { source_id: nonEmpty(domain.id) ?? name, name, verified: domain.state === 'active', records };
}

function domainWebhooks(domain: string, webhooks: JsonObject): SourceWebhook[] {
  const byUrl = new Map<string, string[]>();
  for (const [event, value] of Object.entries(webhooks)) {
    if (!isObject(value)) continue;
    const urls = [...(Array.isArray(value.urls) ? value.urls : []), value.url].filter(
      (u): u is string => typeof u === 'string' && u.trim() !== '',
    );
    for (const url of new Set(urls)) byUrl.set(url, [...(byUrl.get(url) ?? []), event]);
  }
  return [...byUrl].map(([url, events]) => ({ source_id: `domain:${domain}:${url}`, url, events, enabled: true }));
}

function accountWebhooks(rows: unknown[]): SourceWebhook[] {
  const byUrl = new Map<string, string[]>();
  for (const row of rows) {
    if (!isObject(row)) continue;
    const url = nonEmpty(row.url);
    if (!url) continue;
    const events = Array.isArray(row.event_types) ? row.event_types.filter((e): e is string => typeof e === 'string') : [];
    const known = byUrl.get(url) ?? [];
    byUrl.set(url, [...known, ...events.filter((e) => !known.includes(e))]);
  }
  return [...byUrl].map(([url, events]) => ({ source_id: `account:${url}`, url, events, enabled: true }));
}
