/**
 * applySesEvent's suppression by category (docs/deliverability.md, "Bounce categories"), over in-memory
 * fakes: a bounced address goes on the suppression list only when the account suppresses its category
 * (the defaults: invalid, inactive, invalid domain); complaints always; the webhook carries the category.
 */
import type { Email } from '#shared/domain/emails/email';
import type { DeliveryOutcome } from '#shared/domain/emails/outcomes';
import { DEFAULT_SUPPRESS_BOUNCE_CATEGORIES, type BounceCategory } from '#shared/domain/bounces/bounce-category';
import type { ServiceEvent } from '#shared/domain/webhooks/event';
import { applySesEvent, type ApplySesEventDeps } from '#shared/usecases/delivery/apply-ses-event';

const mail = { messageId: 'ses-1', timestamp: '2026-01-01T00:00:00.000Z', tags: { email_id: ['msg_1'], account_id: ['acc_1'] } };

function fakes(chosen: readonly BounceCategory[]) {
  let email: Email = {
    id: 'msg_1',
    account_id: 'acc_1',
    from: 'a@x.io',
    to: ['r@y.io'],
    cc: [],
    bcc: [],
    reply_to: [],
    subject: 's',
    status: 'sent',
    last_event: 'sent',
    bounce_reason: null,
    bounce_type: null,
    tags: [],
    headers: {},
    scheduled_at: null,
    cancelled_at: null,
    sent_at: mail.timestamp,
    delivered_at: null,
    bounced_at: null,
    created_at: mail.timestamp,
    tenant: null,
    provider_message_id: 'ses-1',
  };
  const suppressed: string[] = [];
  const published: ServiceEvent[] = [];
  const deps = {
    emails: {
      recordRecipients: async () => ({ tally: { reached: 1, refused: 0, recipients: 1 }, basis: undefined }),
      applyOutcome: async (_id: string, _account: string | null, outcome: DeliveryOutcome) => {
        email = { ...email, ...(outcome.status ? { status: outcome.status } : {}), last_event: outcome.event, ...outcome.fields } as Email;
        return { kind: 'moved' as const, email };
      },
    },
    events: { publish: async (events: ServiceEvent[]) => void published.push(...events) },
    bounceSuppression: { categoriesOf: async () => chosen },
    suppressions: {
      addMany: async (records: { email: string }[]) =>
        records.map((suppression) => {
          suppressed.push(suppression.email);
          return { suppression, created: true };
        }),
    },
    categoryOptOuts: {},
    tenants: {},
    clock: { now: () => new Date('2026-01-01T00:00:05.000Z') },
  } as unknown as ApplySesEventDeps;
  return { deps, suppressed, published };
}

const bounce = (status: string, diagnosticCode: string, bounceType = 'Permanent') =>
  JSON.stringify({
    eventType: 'Bounce',
    mail,
    bounce: {
      bounceType,
      bounceSubType: 'General',
      timestamp: '2026-01-01T00:00:04.000Z',
      bouncedRecipients: [{ emailAddress: 'r@y.io', status, diagnosticCode }],
    },
  });

describe('applySesEvent: suppression by bounce category', () => {
  it('suppresses an invalid address by default, and says its category in email.bounced', async () => {
    const { deps, suppressed, published } = fakes(DEFAULT_SUPPRESS_BOUNCE_CATEGORIES);
    expect(await applySesEvent(deps, bounce('5.1.1', 'smtp; 550 5.1.1 user unknown'))).toBe('applied');
    expect(suppressed).toEqual(['r@y.io']);
    expect(published.find((event) => event.type === 'email.bounced')?.data).toMatchObject({
      bounce_category: 'invalid_address',
      bounce_type: 'hard',
    });
  });

  it('leaves a reputation block unsuppressed by default', async () => {
    const { deps, suppressed, published } = fakes(DEFAULT_SUPPRESS_BOUNCE_CATEGORIES);
    await applySesEvent(deps, bounce('5.7.1', 'smtp; 554 5.7.1 Client host blocked using zen.spamhaus.org'));
    expect(suppressed).toEqual([]);
    expect(published.find((event) => event.type === 'email.bounced')?.data).toMatchObject({ bounce_category: 'blocked_reputation' });
  });

  it("follows the account's choice: none suppresses an invalid address, mailbox_full suppresses a full one", async () => {
    const none = fakes([]);
    await applySesEvent(none.deps, bounce('5.1.1', 'smtp; 550 5.1.1 user unknown'));
    expect(none.suppressed).toEqual([]);
    const full = fakes(['mailbox_full']);
    await applySesEvent(full.deps, bounce('4.2.2', 'smtp; 452 4.2.2 over quota', 'Transient'));
    expect(full.suppressed).toEqual(['r@y.io']);
  });

  it('suppresses complainers whatever the setting, and gives email.delivery_delayed its category and delay type', async () => {
    const { deps, suppressed, published } = fakes([]);
    await applySesEvent(
      deps,
      JSON.stringify({
        eventType: 'Complaint',
        mail,
        complaint: { timestamp: '2026-01-01T00:00:04.000Z', complainedRecipients: [{ emailAddress: 'r@y.io' }] },
      }),
    );
    expect(suppressed).toEqual(['r@y.io']);
    const delayed = fakes([]);
    await applySesEvent(
      delayed.deps,
      JSON.stringify({
        eventType: 'DeliveryDelay',
        mail,
        deliveryDelay: {
          timestamp: '2026-01-01T00:00:04.000Z',
          delayType: 'IPFailure',
          delayedRecipients: [
            {
              emailAddress: 'r@y.io',
              status: '4.7.0',
              diagnosticCode: 'smtp; 421 4.7.0 [TSS04] Messages temporarily deferred due to unexpected volume',
            },
          ],
        },
      }),
    );
    expect(delayed.published.find((event) => event.type === 'email.delivery_delayed')?.data).toMatchObject({
      bounce_category: 'rate_limited',
      delay_type: 'IPFailure',
    });
    expect(published.some((event) => event.type === 'email.complained')).toBe(true);
  });
});
