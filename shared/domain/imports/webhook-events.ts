/**
 * Provider webhook events -> our event types (spec, "Import mapping rules" 6), and one endpoint per
 * distinct URL. Pure.
 *
 * | meaning              | SendGrid                        | Postmark            | Mailgun        | ours                           |
 * |----------------------|---------------------------------|---------------------|----------------|--------------------------------|
 * | accepted             | processed                       | -                   | accepted       | email.sent                     |
 * | delivered            | delivered                       | delivery            | delivered      | email.delivered                |
 * | deferred / temporary | deferred                        | -                   | temporary_fail | email.delivery_delayed         |
 * | bounce               | bounce                          | bounce              | permanent_fail | email.bounced and email.failed |
 * | dropped              | dropped                         | -                   | -              | email.suppressed               |
 * | spam complaint       | spam_report                     | spam_complaint      | complained     | email.complained               |
 * | open                 | open                            | open                | opened         | email.opened                   |
 * | click                | click                           | click               | clicked        | email.clicked                  |
 * | unsubscribe          | unsubscribe, group_unsubscribe  | subscription_change | unsubscribed   | contact.unsubscribed           |
 *
 * A provider bounce becomes both email.bounced and email.failed: the provider's one event covers what we
 * split in two (a refusal during delivery is email.failed; a bounce after delivery or a block refusal is
 * email.bounced), so an endpoint that got bounces keeps getting all of them. Everything else
 * (SendGrid group_resubscribe, account_status_change; Postmark inbound; any name not in PROVIDER_EVENTS)
 * is listed in unmapped_events: there is no equivalent, and nothing is guessed.
 *
 * Event names are matched trimmed and lower-cased (adapters emit PROVIDER_EVENTS names already);
 * unmapped names are reported trimmed, as the adapter gave them.
 */
import { EVENT_TYPES, type EventType } from '../webhooks/event-types';
import type { ProviderName, SourceWebhook } from './source';

export const WEBHOOK_EVENT_MAP = {
  sendgrid: {
    processed: ['email.sent'],
    delivered: ['email.delivered'],
    deferred: ['email.delivery_delayed'],
    bounce: ['email.bounced', 'email.failed'],
    dropped: ['email.suppressed'],
    spam_report: ['email.complained'],
    open: ['email.opened'],
    click: ['email.clicked'],
    unsubscribe: ['contact.unsubscribed'],
    group_unsubscribe: ['contact.unsubscribed'],
  },
  postmark: {
    delivery: ['email.delivered'],
    bounce: ['email.bounced', 'email.failed'],
    spam_complaint: ['email.complained'],
    open: ['email.opened'],
    click: ['email.clicked'],
    subscription_change: ['contact.unsubscribed'],
  },
  mailgun: {
    accepted: ['email.sent'],
    delivered: ['email.delivered'],
    temporary_fail: ['email.delivery_delayed'],
    permanent_fail: ['email.bounced', 'email.failed'],
    complained: ['email.complained'],
    opened: ['email.opened'],
    clicked: ['email.clicked'],
    unsubscribed: ['contact.unsubscribed'],
  },
} as const satisfies Record<ProviderName, Record<string, readonly EventType[]>>;

export interface MappedEvents {
  /** Ours, each once, in EVENT_TYPES order. */
  events: EventType[];
  /** The provider's names without an equivalent, each once, sorted. */
  unmapped_events: string[];
}

export interface MergedWebhook extends MappedEvents {
  /** Trimmed; otherwise exactly as the provider has it (`/hook` and `/hook/` are two endpoints). */
  url: string;
  /** The provider endpoints merged into this one, in the order read. */
  source_ids: string[];
}

function inEventTypeOrder(events: Iterable<EventType>): EventType[] {
  const wanted = new Set(events);
  return EVENT_TYPES.filter((type) => wanted.has(type));
}

function eventsOf(provider: ProviderName, name: string): readonly EventType[] | null {
  const table: Readonly<Record<string, readonly EventType[]>> = WEBHOOK_EVENT_MAP[provider];
  const key = name.trim().toLowerCase();
  return Object.hasOwn(table, key) ? table[key]! : null;
}

export function mapWebhookEvents(provider: ProviderName, events: readonly string[]): MappedEvents {
  const mapped = new Set<EventType>();
  const unmapped = new Set<string>();
  for (const name of events) {
    const ours = eventsOf(provider, name);
    if (ours) {
      ours.forEach((type) => {
        mapped.add(type);
      });
    } else if (name.trim() !== '') unmapped.add(name.trim());
  }
  return { events: inEventTypeOrder(mapped), unmapped_events: [...unmapped].sort() };
}

/**
 * One entry per distinct URL (compared exactly after trimming), in the order the URLs were first seen,
 * with the events of all its provider endpoints together. An entry may have no events (only unmapped
 * ones): the caller reports it rather than creating an endpoint that would receive nothing. Whether the
 * provider endpoint was enabled does not matter: imported endpoints start disabled anyway.
 */
export function webhooksByUrl(provider: ProviderName, webhooks: readonly SourceWebhook[]): MergedWebhook[] {
  const byUrl = new Map<string, { names: string[]; source_ids: string[] }>();
  for (const webhook of webhooks) {
    const url = webhook.url.trim();
    const entry = byUrl.get(url) ?? { names: [], source_ids: [] };
    entry.names.push(...webhook.events);
    entry.source_ids.push(webhook.source_id);
    byUrl.set(url, entry);
  }
  return [...byUrl].map(([url, entry]) => ({ url, ...mapWebhookEvents(provider, entry.names), source_ids: entry.source_ids }));
}
