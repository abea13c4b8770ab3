/** Webhook event mapping (spec rule 6) and one endpoint per distinct URL. */
import { PROVIDER_EVENTS, type ProviderName, type SourceWebhook } from '#shared/domain/imports/source';
import { mapWebhookEvents, webhooksByUrl } from '#shared/domain/imports/webhook-events';
import { EVENT_TYPES } from '#shared/domain/webhooks/event-types';

describe('mapWebhookEvents', () => {
  it.each([
    ['sendgrid', 'processed', ['email.sent']],
    ['sendgrid', 'delivered', ['email.delivered']],
    ['sendgrid', 'deferred', ['email.delivery_delayed']],
    ['sendgrid', 'bounce', ['email.bounced', 'email.failed']],
    ['sendgrid', 'dropped', ['email.suppressed']],
    ['sendgrid', 'spam_report', ['email.complained']],
    ['sendgrid', 'open', ['email.opened']],
    ['sendgrid', 'click', ['email.clicked']],
    ['sendgrid', 'unsubscribe', ['contact.unsubscribed']],
    ['sendgrid', 'group_unsubscribe', ['contact.unsubscribed']],
    ['postmark', 'delivery', ['email.delivered']],
    ['postmark', 'bounce', ['email.bounced', 'email.failed']],
    ['postmark', 'spam_complaint', ['email.complained']],
    ['postmark', 'open', ['email.opened']],
    ['postmark', 'click', ['email.clicked']],
    ['postmark', 'subscription_change', ['contact.unsubscribed']],
    ['mailgun', 'accepted', ['email.sent']],
    ['mailgun', 'delivered', ['email.delivered']],
    ['mailgun', 'temporary_fail', ['email.delivery_delayed']],
    ['mailgun', 'permanent_fail', ['email.bounced', 'email.failed']],
    ['mailgun', 'complained', ['email.complained']],
    ['mailgun', 'opened', ['email.opened']],
    ['mailgun', 'clicked', ['email.clicked']],
    ['mailgun', 'unsubscribed', ['contact.unsubscribed']],
  ] as [ProviderName, string, string[]][])('%s %s -> %j', (provider, name, events) => {
    expect(mapWebhookEvents(provider, [name])).toEqual({ events, unmapped_events: [] });
  });

  it.each([
    ['sendgrid', 'group_resubscribe'],
    ['sendgrid', 'account_status_change'],
    ['postmark', 'inbound'],
  ] as [ProviderName, string][])('%s %s has no equivalent: unmapped', (provider, name) => {
    expect(mapWebhookEvents(provider, [name])).toEqual({ events: [], unmapped_events: [name] });
  });

  it('knows every name of the adapters vocabulary (mapped, or one of the three without an equivalent)', () => {
    const withoutEquivalent = new Set(['group_resubscribe', 'account_status_change', 'inbound']);
    for (const provider of Object.keys(PROVIDER_EVENTS) as ProviderName[]) {
      for (const name of PROVIDER_EVENTS[provider]) {
        const mapped = mapWebhookEvents(provider, [name]);
        expect(mapped.events.length > 0 || withoutEquivalent.has(name)).toBe(true);
      }
    }
  });

  it('does not map one provider names through another table', () => {
    expect(mapWebhookEvents('mailgun', ['processed', 'spam_report'])).toEqual({
      events: [],
      unmapped_events: ['processed', 'spam_report'],
    });
    expect(mapWebhookEvents('postmark', ['accepted'])).toEqual({ events: [], unmapped_events: ['accepted'] });
  });

  it('answers our events once each in EVENT_TYPES order, and the unmapped ones sorted and once each', () => {
    const mapped = mapWebhookEvents('sendgrid', [
      'unsubscribe',
      'click',
      'zeta',
      'bounce',
      'group_unsubscribe',
      'processed',
      'alpha',
      'zeta',
      'group_resubscribe',
    ]);
    expect(mapped.events).toEqual(['email.sent', 'email.bounced', 'email.clicked', 'email.failed', 'contact.unsubscribed']);
    expect(mapped.events).toEqual(EVENT_TYPES.filter((type) => mapped.events.includes(type)));
    expect(mapped.unmapped_events).toEqual(['alpha', 'group_resubscribe', 'zeta']);
  });

  it('matches names trimmed and case-insensitively; reports unknown ones trimmed', () => {
    expect(mapWebhookEvents('postmark', [' Delivery ', 'SubscriptionChange ', '  '])).toEqual({
      events: ['email.delivered'],
      unmapped_events: ['SubscriptionChange'],
    });
  });
});

describe('webhooksByUrl', () => {
  const hook = (source_id: string, url: string, events: string[], enabled = true): SourceWebhook => ({ source_id, url, events, enabled });

  it('makes one endpoint per distinct URL with the events of all of them, in first-seen order', () => {
    const merged = webhooksByUrl('mailgun', [
      hook('delivered', 'https://hooks.example.com/mg', ['delivered']),
      hook('opened', 'https://other.example.com/x', ['opened']),
      hook('permanent_fail', ' https://hooks.example.com/mg ', ['permanent_fail', 'mystery']),
      hook('accepted', 'https://hooks.example.com/mg', ['accepted'], false),
    ]);
    expect(merged).toEqual([
      {
        url: 'https://hooks.example.com/mg',
        events: ['email.sent', 'email.delivered', 'email.bounced', 'email.failed'],
        unmapped_events: ['mystery'],
        source_ids: ['delivered', 'permanent_fail', 'accepted'],
      },
      { url: 'https://other.example.com/x', events: ['email.opened'], unmapped_events: [], source_ids: ['opened'] },
    ]);
  });

  it('treats a trailing slash, or another case in the path, as another URL', () => {
    const merged = webhooksByUrl('sendgrid', [
      hook('1', 'https://h.example.com/hook', ['open']),
      hook('2', 'https://h.example.com/hook/', ['click']),
      hook('3', 'https://h.example.com/Hook', ['click']),
    ]);
    expect(merged.map((entry) => entry.url)).toEqual([
      'https://h.example.com/hook',
      'https://h.example.com/hook/',
      'https://h.example.com/Hook',
    ]);
  });

  it('keeps an endpoint with only unmapped events, with no events, for the caller to report', () => {
    expect(webhooksByUrl('postmark', [hook('9', 'https://in.example.com', ['inbound'])])).toEqual([
      { url: 'https://in.example.com', events: [], unmapped_events: ['inbound'], source_ids: ['9'] },
    ]);
  });

  it('answers nothing for no endpoints', () => {
    expect(webhooksByUrl('sendgrid', [])).toEqual([]);
  });
});
