/**
 * Content redaction's rules (docs/redaction.md): the account's store_content and the request's (off wins);
 * the content is dropped only once SES accepted the email (a scheduled email keeps it until sent); the
 * send worker drops the body object, the attachments' objects and the subject before email.sent is built;
 * a redacted email is not resent (422); PATCH /account's store_content; a receiving domain's
 * inbound_store_content and the metadata-only record of received mail. The store, blobs and events are
 * in-memory doubles; the worker's own code runs.
 */
import type { Account } from '#shared/domain/accounts/account';
import { toPublicEmail, type Email } from '#shared/domain/emails/email';
import { receivedContentState } from '#shared/domain/inbound/received-email';
import { contentDroppable, storesContent } from '#shared/domain/emails/redaction';
import type { ServiceEvent } from '#shared/domain/webhooks/event';
import type { StoredEmail } from '#shared/adapters/store/emails/stored-email';
import { deliverEmail, type DeliverEmailDeps } from '#shared/usecases/delivery/deliver-email';
import { dropContentAfterSend } from '#shared/usecases/delivery/drop-content';
import { resendEmail } from '#shared/usecases/send/resend-email';
import { toAccountSettings, updateAccountSettings } from '#shared/usecases/account/settings';
import type { Principal } from '#shared/usecases/access/principal';
import { AppError } from '#shared/domain/errors';
import { receivingSettings, redactedReceivedEmail } from '#shared/usecases/inbound/inbound-redaction';

const NOW = '2026-11-25T10:00:00.000Z';

function email(fields: Partial<Email> = {}): Email {
  return {
    id: 'msg_01JD7V5K3X4Y5Z6A7B8C9D0E1F',
    account_id: 'acc_1',
    from: 'Acme <hello@acme.test>',
    to: ['friend@example.org'],
    cc: [],
    bcc: [],
    reply_to: [],
    subject: 'Your invoice, Ada',
    status: 'queued',
    last_event: 'queued',
    bounce_reason: null,
    bounce_type: null,
    tags: [],
    headers: {},
    scheduled_at: null,
    cancelled_at: null,
    sent_at: null,
    delivered_at: null,
    bounced_at: null,
    created_at: NOW,
    tenant: null,
    provider_message_id: null,
    attachments: [{ filename: 'invoice.pdf', content_type: 'application/pdf', size: 4, blob_key: 'retention/30d/attachments/msg_1/0' }],
    ...fields,
  };
}

const account = (fields: Partial<Account> = {}): Account => ({
  id: 'acc_1',
  email: 'owner@acme.test',
  plan: 'pro',
  payment_method: true,
  tenants_enabled: false,
  created_at: NOW,
  updated_at: NOW,
  ...fields,
});
const principal = (fields: Partial<Account> = {}) =>
  ({ account: account(fields), credential: { kind: 'api_key', tenant: null, scopes: ['full'] } }) as unknown as Principal;

describe('whether an email keeps its content', () => {
  it('is off when the account or the request turns it off; a request cannot turn it on for an account that keeps none', () => {
    expect(storesContent({}, {})).toBe(true);
    expect(storesContent({ store_content: true }, { store_content: true })).toBe(true);
    expect(storesContent({}, { store_content: false })).toBe(false);
    expect(storesContent({ store_content: false }, {})).toBe(false);
    expect(storesContent({ store_content: false }, { store_content: true })).toBe(false);
  });
});

describe('when the content may be dropped', () => {
  it('only once SES accepted a redacted email: a queued or scheduled one keeps it until sent, a dropped one is not dropped twice', () => {
    expect(contentDroppable(email({ store_content: false, status: 'scheduled', scheduled_at: NOW }))).toBe(false);
    expect(contentDroppable(email({ store_content: false }))).toBe(false);
    expect(contentDroppable(email({ store_content: false, status: 'sent', provider_message_id: 'ses-1' }))).toBe(true);
    expect(contentDroppable(email({ store_content: false, status: 'sent', provider_message_id: 'ses-1', content_dropped_at: NOW }))).toBe(
      false,
    );
    expect(contentDroppable(email({ status: 'sent', provider_message_id: 'ses-1' }))).toBe(false);
  });
});

describe("the public record's content state", () => {
  it('is kept for a plain email, until_sent for a redacted one not yet sent, not_kept once dropped', () => {
    expect(toPublicEmail(email()).content).toBe('kept');
    expect(toPublicEmail(email({ store_content: false, status: 'scheduled', scheduled_at: NOW })).content).toBe('until_sent');
    expect(
      toPublicEmail(email({ store_content: false, status: 'sent', provider_message_id: 'ses-1', content_dropped_at: NOW })).content,
    ).toBe('not_kept');
  });
});

/** A store double that records dropContent and answers the email as the real write would leave it. */
function fakeStore(stored: StoredEmail) {
  const dropped: unknown[][] = [];
  return {
    dropped,
    dropContent: async (id: string, at: string, attachments: Email['attachments'], subject: string) => {
      dropped.push([id, at, attachments, subject]);
      return {
        ...stored.email,
        status: 'sent' as const,
        provider_message_id: 'ses-1',
        subject,
        content_dropped_at: at,
        ...(attachments ? { attachments } : {}),
      };
    },
  };
}

describe('dropping the content after the send', () => {
  const stored = (fields: Partial<Email>): StoredEmail => ({
    email: email(fields),
    body: { blobKey: 'retention/30d/bodies/msg_1.json' },
    internals: {},
  });

  it('deletes the body and attachment objects, then keeps the attachments by name and size and no subject', async () => {
    const s = stored({ store_content: false });
    const store = fakeStore(s);
    const deleted: string[] = [];
    const after = await dropContentAfterSend(
      { emails: store, blobs: { delete: async (key) => void deleted.push(key) } },
      s,
      { ...s.email, status: 'sent', provider_message_id: 'ses-1' },
      NOW,
    );
    expect(deleted.sort()).toEqual(['retention/30d/attachments/msg_1/0', 'retention/30d/bodies/msg_1.json']);
    expect(store.dropped).toEqual([[s.email.id, NOW, [{ filename: 'invoice.pdf', content_type: 'application/pdf', size: 4 }], '']]);
    expect(after.subject).toBe('');
    expect(after.content_dropped_at).toBe(NOW);
  });

  it('leaves a kept email, and an email not yet sent, untouched', async () => {
    for (const [s, sent] of [
      [stored({}), { status: 'sent', provider_message_id: 'ses-1' }],
      [stored({ store_content: false }), { status: 'scheduled' }],
    ] as const) {
      const store = fakeStore(s);
      const deleted: string[] = [];
      const after = await dropContentAfterSend(
        { emails: store, blobs: { delete: async (key) => void deleted.push(key) } },
        s,
        { ...s.email, ...sent },
        NOW,
      );
      expect(deleted).toEqual([]);
      expect(store.dropped).toEqual([]);
      expect(after.subject).toBe('Your invoice, Ada');
    }
  });
});

describe('the send worker on a redacted email', () => {
  it('sends the content, then drops it before email.sent is built (the event has no subject)', async () => {
    const claimed = email({ store_content: false, attachments: [] });
    const order: string[] = [];
    const events: ServiceEvent[] = [];
    let sentRaw = '';
    const deps: DeliverEmailDeps = {
      emails: {
        claimForSend: async () => ({
          kind: 'claimed',
          stored: { email: claimed, body: { inline: { text: 'Dear Ada, your invoice' } }, internals: {} },
        }),
        recordSent: async () => {
          order.push('recordSent');
          return { ...claimed, status: 'sent', provider_message_id: 'ses-1', sent_at: NOW };
        },
        dropContent: async (_id, at, _attachments, subject) => {
          order.push('dropContent');
          return { ...claimed, status: 'sent', provider_message_id: 'ses-1', sent_at: NOW, subject, content_dropped_at: at };
        },
        applyOutcome: async () => ({ kind: 'missing' }),
        releaseLease: async () => undefined,
      },
      events: {
        publish: async (batch) => {
          order.push('publish');
          events.push(...batch);
        },
      },
      accounts: { get: async () => null },
      tenants: { find: async () => null },
      suppressions: { findSuppressed: async () => [] },
      sendingDomains: {
        of: async () => ({
          kind: 'verified',
          domainId: 'dom_1',
          selector: 's1',
          tenantId: null,
          openTracking: false,
          clickTracking: false,
          requireTls: false,
          linkHost: null,
        }),
      },
      linkSigning: { urls: async () => ({ unsubscribeUrl: () => '', openUrl: () => '', clickUrl: () => '' }) },
      sandboxDomain: 'sandbox.test',
      blobs: { get: async () => Buffer.alloc(0), delete: async () => undefined } as never,
      mailer: {
        send: async (message) => {
          sentRaw = message.raw.toString('utf8');
          order.push('ses');
          return { providerMessageId: 'ses-1' };
        },
      },
      clock: { now: () => new Date(NOW) },
      leaseMs: 45_000,
    };
    expect(await deliverEmail(deps, claimed.id)).toBe('sent');
    expect(sentRaw).toContain('Dear Ada, your invoice');
    expect(sentRaw).toContain('Subject: Your invoice, Ada');
    expect(order).toEqual(['ses', 'recordSent', 'dropContent', 'publish']);
    expect(events).toHaveLength(1);
    expect(JSON.stringify(events[0])).not.toContain('Ada');
  });
});

describe('resending a redacted email', () => {
  it('is refused with a 422 saying its content was not kept', async () => {
    const stored: StoredEmail = {
      email: email({ store_content: false, status: 'delivered', provider_message_id: 'ses-1', content_dropped_at: NOW, subject: '' }),
      body: { inline: {} },
      internals: {},
    };
    const deps = { emails: { get: async () => stored } } as unknown as Parameters<typeof resendEmail>[0];
    const refused = await resendEmail(deps, principal(), stored.email.id).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({ status: 422, code: 'validation_error' });
    expect((refused as Error).message).toContain('store_content: false');
  });
});

describe("the account's store_content (GET and PATCH /account)", () => {
  it('reads true by default and false once turned off; a change of store_content alone keeps the retention', async () => {
    expect(toAccountSettings(account()).store_content).toBe(true);
    const writes: unknown[] = [];
    const accounts = {
      update: async (_id: string, changes: Partial<Account>) => {
        writes.push(changes);
        return account({ retention: { emails_days: 30 }, ...changes });
      },
    };
    const settings = await updateAccountSettings(
      { accounts: accounts as never, clock: { now: () => new Date(NOW) } },
      principal({ retention: { emails_days: 30 } }),
      { store_content: false },
    );
    expect(writes).toEqual([{ store_content: false }]);
    expect(settings.store_content).toBe(false);
    expect(settings.retention.emails_days).toBe(30);
  });
});

describe('received mail on a domain that keeps no content', () => {
  /** The domain's switch as the worker reads it, with its routes (receivingSettings). */
  const inboundKeepsContent = async (...args: Parameters<typeof receivingSettings>) => (await receivingSettings(...args)).keepContent;
  const domainStore = (fields: Record<string, unknown>) => ({ get: async () => ({ domain: { account_id: 'acc_1', ...fields } }) }) as never;

  it("follows the receiving domain's inbound_store_content (absent or unknown: kept)", async () => {
    const message = { domain_id: 'dom_1', account_id: 'acc_1' };
    expect(await inboundKeepsContent({ domains: domainStore({ inbound_store_content: false }) }, message)).toBe(false);
    expect(await inboundKeepsContent({ domains: domainStore({ inbound_store_content: true }) }, message)).toBe(true);
    expect(await inboundKeepsContent({ domains: domainStore({}) }, message)).toBe(true);
    expect(await inboundKeepsContent({ domains: { get: async () => null } as never }, message)).toBe(true);
    // Another account's domain (a stale id) never switches this account's mail off.
    expect(await inboundKeepsContent({ domains: domainStore({ account_id: 'acc_2', inbound_store_content: false }) }, message)).toBe(true);
  });

  it('records the metadata only: no subject, stripped text, attachment list nor body sizes', () => {
    const record = {
      id: 'inb_1',
      subject: 'Re: my diagnosis',
      stripped_text: 'I have',
      attachments: [{ id: 'att_1', filename: 'scan.pdf' }],
      attachment_count: 1,
      html_bytes: 10,
      text_bytes: 6,
      from: 'ada@example.org',
    } as never;
    expect(redactedReceivedEmail(record)).toMatchObject({
      subject: '',
      stripped_text: null,
      attachments: [],
      html_bytes: null,
      text_bytes: null,
      content_object: true,
      content_kept: false,
      attachment_count: 1,
      from: 'ada@example.org',
    });
    expect(receivedContentState(redactedReceivedEmail(record))).toBe('not_kept');
    expect(receivedContentState(record)).toBe('kept');
  });
});
