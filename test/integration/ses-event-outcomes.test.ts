/**
 * Every SES event type and sub-type, from the local SES's triggers (docs/local-cloud/ses.md, "Events")
 * through SNS, SQS and the ses-events worker to the email's status and its webhooks (docs/api.md,
 * "Delivery outcomes"): final transient and undetermined bounces, blocks, Reject, DeliveryDelay, SES's
 * suppression lists read as "not sent"; outcomes decided per recipient whatever the arrival order; no
 * webhook for an event that changes nothing. And tenants: a TLS-enforced tenant domain sends through the
 * tenant, and a paused (DISABLED) SES tenant's email is never sent around the pause.
 */
import { GetTenantCommand, UpdateReputationEntityCustomerManagedStatusCommand } from '@aws-sdk/client-sesv2';
import { PublishCommand, SNSClient } from '@aws-sdk/client-sns';
import { LOCAL_EVENTS_DOMAIN } from '#localstack/emulators/ses/simulator';
import type { Email } from '#shared/domain/emails/email';
import { newId } from '#shared/domain/ids';
import { applySesEvent } from '#shared/usecases/delivery/apply-ses-event';
import { publishAll, uniqueDomain } from './harness/dns';
import { verifiedDomain } from './harness/domains';
import { api, emailOf, newAccount, sesMessagesFor, stack, waitFor, waitForStatus, type TestAccount } from './harness/stack';
import { createTenant } from './harness/tenants';
import { tableCallsOf } from './harness/table-calls';
import { webhookInbox, type ReceivedWebhook } from './harness/webhook-inbox';
import { sesTenantsView } from '../support/ses-tenants-view';

const EMAIL_EVENTS = ['email.sent', 'email.delivered', 'email.delivery_delayed', 'email.bounced', 'email.failed', 'email.complained'];
const local = (part: string) => `${part}@${LOCAL_EVENTS_DOMAIN}`;
const view = sesTenantsView(() => stack().info.env);

let account: TestAccount;
let from: string;
let received: () => Promise<ReceivedWebhook[]>;

beforeAll(async () => {
  account = await newAccount({ plan: 'scale', paymentMethod: true, tenants: true });
  from = `hello@${(await verifiedDomain(account)).name}`;
  received = await webhookInbox(account, EMAIL_EVENTS);
});

async function send(to: string[], extra: Record<string, unknown> = {}): Promise<string> {
  const sent = await api('POST', '/emails', { key: account.key, body: { from, to, subject: 'events', text: 't', ...extra } });
  expect(sent.status).toBe(200);
  return sent.body.id;
}

/** The webhook types the email got so far, in the order they reached the inbox. */
/** The email's webhook events, each once: delivery is at least once (a retry has the same webhook-id). */
async function webhooksOf(id: string): Promise<string[]> {
  const events = new Map((await received()).filter((event) => event.data.email_id === id).map((event) => [event.id, event.type]));
  return [...events.values()];
}

// Waits of up to 60 s for webhooks (below): tests get room for several.
jest.setTimeout(180_000);

async function waitForWebhook(id: string, type: string): Promise<void> {
  // 60 s: a 50-recipient send elsewhere in the suite is 50 events for the same pipeline.
  await waitFor(async () => (await webhooksOf(id)).includes(type), `${type} of ${id}`, 60_000);
}

async function suppressed(address: string): Promise<boolean> {
  return (await api('GET', `/suppressions?email=${encodeURIComponent(address)}`, { key: account.key })).body.suppressions.length > 0;
}

// Every test goes at once (`it.concurrent`, one group: Jest runs a describe block's concurrent tests together): each
// follows emails and recipients of its own, so their waits for the pipeline overlap; the DynamoDB calls counted are
// the counting test's own (tableCallsOf).
describe('SES events', () => {
  // No webhook when nothing changed (the longest test: first, so that it starts at once).
  async function publishSesEvent(event: Record<string, unknown>) {
    const { info } = stack();
    const sns = new SNSClient({ endpoint: info.endpoints.sns, region: info.region });
    await sns.send(new PublishCommand({ TopicArn: info.resources!.topics.sesEvents!.arn, Message: JSON.stringify(event) }));
    sns.destroy();
  }

  it.concurrent('a DeliveryDelay (and a duplicate Delivery) after the Delivery publish nothing', async () => {
    const id = await send(['success@simulator.amazonses.com']);
    await waitForStatus(account, id, 'delivered');
    await waitForWebhook(id, 'email.delivered');
    const email = await emailOf(account, id);
    const mail = {
      timestamp: email.sent_at,
      messageId: email.provider_message_id ?? `local-${id}`,
      destination: ['success@simulator.amazonses.com'],
      tags: { email_id: [id], account_id: [account.id] },
    };
    await publishSesEvent({
      eventType: 'DeliveryDelay',
      mail,
      deliveryDelay: {
        timestamp: new Date().toISOString(),
        delayType: 'TransientCommunicationFailure',
        delayedRecipients: [{ emailAddress: 'success@simulator.amazonses.com' }],
      },
    });
    await publishSesEvent({
      eventType: 'Delivery',
      mail,
      delivery: { timestamp: new Date().toISOString(), recipients: ['success@simulator.amazonses.com'] },
    });
    // A later email's webhook shows the worker has moved past both events.
    const marker = await send(['success@simulator.amazonses.com']);
    await waitForWebhook(marker, 'email.delivered');
    await new Promise((resolve) => setTimeout(resolve, 3000));
    expect((await webhooksOf(id)).filter((type) => type !== 'email.sent')).toEqual(['email.delivered']);
    expect(await emailOf(account, id)).toMatchObject({ status: 'delivered', last_event: 'delivered' });
  }, 180_000);

  // Each event type: status, webhook, suppression.
  it.concurrent.each([
    // [recipient, status, bounce_type, reason pattern, webhook]
    [local('transient'), 'bounced', 'soft', /^Transient bounce \(General\)/, 'email.bounced'],
    [local('mailboxfull'), 'bounced', 'soft', /^Transient bounce \(MailboxFull\): smtp; 552 5\.2\.2/, 'email.bounced'],
    [local('messagetoolarge'), 'bounced', 'soft', /^Transient bounce \(MessageTooLarge\)/, 'email.bounced'],
    [local('contentrejected'), 'bounced', 'block', /^Transient bounce \(ContentRejected\)/, 'email.bounced'],
    [local('attachmentrejected'), 'bounced', 'block', /^Transient bounce \(AttachmentRejected\)/, 'email.bounced'],
    [local('undetermined'), 'bounced', 'undetermined', /^Undetermined bounce$/, 'email.bounced'],
    [local('reject'), 'failed', null, /^Rejected by SES: Bad content$/, 'email.failed'],
    [
      'suppressionlist@simulator.amazonses.com',
      'failed',
      'not_sent',
      /^Not sent: the address is on the SES account's suppression list/,
      'email.failed',
    ],
    [local('complaintsuppressed'), 'failed', 'not_sent', /^Not sent: the address is on the SES account's suppression list/, 'email.failed'],
  ])('%s ends %s (%s) with its reason and webhook, and is not suppressed', async (to, status, bounceType, reason, webhook) => {
    const id = await send([to]);
    const email = await waitForStatus(account, id, status);
    expect(email).toMatchObject({ last_event: status, bounce_type: bounceType, delivered_at: null });
    expect(email.bounce_reason).toMatch(reason);
    await waitForWebhook(id, webhook);
    expect(await webhooksOf(id)).not.toContain('email.complained');
    expect(await webhooksOf(id)).not.toContain('email.delivery_delayed');
    expect(await suppressed(to)).toBe(false);
  });

  it.concurrent('a DeliveryDelay is delivery_delayed while the email is not final, then its Delivery delivers it', async () => {
    const id = await send([local('delay+mailboxfull')]);
    await waitForStatus(account, id, 'delivered');
    // Both webhooks come (each waited for: webhooks are delivered in parallel and at least once, so their
    // arrival order is not promised, as with Resend's and Svix's; under load the delay's came second once).
    await waitForWebhook(id, 'email.delivered');
    await waitForWebhook(id, 'email.delivery_delayed');
    // The delay happened first (the events' own times).
    const at = async (type: string) =>
      Date.parse((await received()).find((event) => event.data.email_id === id && event.type === type)!.created_at);
    expect(await at('email.delivery_delayed')).toBeLessThanOrEqual(await at('email.delivered'));
  });

  // Per recipient, whatever the order.
  it.concurrent("a suppression-list bounce of B before A's Delivery ends as in the other order: bounced (not_sent), after email.delivered and email.bounced", async () => {
    const ordered = await send(['success@simulator.amazonses.com', 'suppressionlist@simulator.amazonses.com']);
    // `+early`: the local SES publishes B's bounce first, a second before A's Delivery (as SES does).
    const reversed = await send(['success@simulator.amazonses.com', 'suppressionlist+early@simulator.amazonses.com']);
    for (const id of [ordered, reversed]) {
      await waitForStatus(account, id, 'bounced');
      // Both events' writes: when B's bounce and A's Delivery are handled at once, B's `bounced` may land
      // before A's delivered_at (then recorded on the bounced email, EmailRepository.applyOutcome).
      const email = await waitFor(async () => {
        const current = await emailOf(account, id);
        return current.delivered_at ? current : undefined;
      }, `delivered_at of ${id}`);
      expect(email).toMatchObject({
        status: 'bounced',
        last_event: 'bounced',
        bounce_type: 'not_sent',
        delivered_at: expect.any(String),
        bounced_at: expect.any(String),
      });
      expect(email.bounce_reason).toMatch(/^Not sent: /);
      await waitForWebhook(id, 'email.bounced');
      await waitForWebhook(id, 'email.delivered');
      expect(await webhooksOf(id)).not.toContain('email.failed');
    }
    // The early bounce really went first.
    const [message] = await sesMessagesFor(reversed, { raw: false });
    expect(message!.events.map((event) => event.type)).toEqual(['Bounce', 'Delivery']);
  }, 180_000);

  it.concurrent('every recipient refused ends failed; a refusal waits for the other recipients', async () => {
    const id = await send(['suppressionlist+early@simulator.amazonses.com', local('complaintsuppressed')]);
    const email = await waitForStatus(account, id, 'failed');
    expect(email).toMatchObject({ bounce_type: 'not_sent', delivered_at: null });
    await waitForWebhook(id, 'email.failed');
  });

  // Per recipient under concurrency.
  /** A sent email to two recipients, stored as the send path stores it (no SES events of its own). */
  /**
   * An email SES has taken (status `sent`, its provider id set), written as one item: the outbox relay hands
   * only `queued` items to the send queue, so the stack's own pipeline never sends it (accepted `queued`
   * and then recorded sent, a starved stack could send it, and SES's own Delivery move it, in between).
   */
  async function sentEmail(to: string[]): Promise<Email> {
    const now = new Date().toISOString();
    const email: Email = {
      id: newId('msg'),
      account_id: account.id,
      from,
      to,
      cc: [],
      bcc: [],
      reply_to: [],
      subject: 'race',
      status: 'sent',
      last_event: 'sent',
      bounce_reason: null,
      bounce_type: null,
      tags: [],
      headers: {},
      scheduled_at: null,
      cancelled_at: null,
      sent_at: now,
      delivered_at: null,
      bounced_at: null,
      created_at: now,
      tenant: null,
      provider_message_id: `ses-${newId('msg')}`,
    };
    const { services } = stack();
    await services.emails.create(email, { inline: { text: 't' } as never });
    return email;
  }

  /** The `mail` object of SES's events about an email of sentEmail. */
  const sesMailOf = (email: Email, destination: string[]) => ({
    timestamp: email.created_at,
    messageId: email.provider_message_id,
    destination,
    tags: { email_id: [email.id], account_id: [account.id] },
  });

  /** SES's notification that it did not send to `address` (on the account's suppression list): a refusal. */
  const suppressionListRefusal = (mail: ReturnType<typeof sesMailOf>, address: string, at: string) =>
    JSON.stringify({
      eventType: 'Bounce',
      mail,
      bounce: {
        bounceType: 'Permanent',
        bounceSubType: 'OnAccountSuppressionList',
        timestamp: at,
        bouncedRecipients: [
          {
            emailAddress: address,
            status: '5.1.1',
            diagnosticCode: 'Amazon SES did not send the message to this address because it is on the suppression list for your account.',
          },
        ],
      },
    });

  it.concurrent('a notification applied by a worker that died before publishing is published when it comes again (same event id), a later duplicate is not', async () => {
    const { services } = stack();
    const address = 'replay@example.net';
    const email = await sentEmail([address]);
    const mail = sesMailOf(email, [address]);
    const delivery = (at: string) => JSON.stringify({ eventType: 'Delivery', mail, delivery: { timestamp: at, recipients: [address] } });
    const at = new Date().toISOString();
    // The worker writes the outcome, then dies before its publish: the webhook is owed.
    const dying = { ...services, events: { publish: async () => Promise.reject(new Error('killed before publishing')) } };
    await expect(applySesEvent(dying, delivery(at))).rejects.toThrow('killed before publishing');
    expect(await emailOf(account, email.id)).toMatchObject({ status: 'delivered', delivered_at: at });
    // SQS hands the notification out again: the write moves nothing, and the webhook goes out.
    expect(await applySesEvent(services, delivery(at))).toBe('applied');
    await waitForWebhook(email.id, 'email.delivered');
    // Another Delivery notification (its own timestamp) is not this event: nothing more.
    expect(await applySesEvent(services, delivery(new Date(Date.now() + 1000).toISOString()))).toBe('applied');
    const marker = await send(['success@simulator.amazonses.com']);
    await waitForWebhook(marker, 'email.delivered');
    expect((await webhooksOf(email.id)).filter((type) => type !== 'email.sent')).toEqual(['email.delivered']);
  }, 180_000);

  it.concurrent("a one-recipient email's Delivery is one write (its outcome and its recipient together); a duplicate changes nothing", async () => {
    const { services } = stack();
    const address = 'single@example.net';
    const email = await sentEmail([address]);
    const mail = sesMailOf(email, [address]);
    const at = new Date().toISOString();
    const delivery = JSON.stringify({ eventType: 'Delivery', mail, delivery: { timestamp: at, recipients: [address] } });
    const first = await tableCallsOf(async () => void expect(await applySesEvent(services, delivery)).toBe('applied'));
    expect(first.filter((name) => name === 'UpdateCommand')).toHaveLength(1);
    expect(await emailOf(account, email.id)).toMatchObject({ status: 'delivered', last_event: 'delivered', delivered_at: at });
    // Again (SQS delivers at least once): the one write's condition fails, and the two-step path finds nothing to change.
    expect(await applySesEvent(services, delivery)).toBe('applied');
    expect(await emailOf(account, email.id)).toMatchObject({ status: 'delivered', delivered_at: at });
    await waitForWebhook(email.id, 'email.delivered');
    expect((await webhooksOf(email.id)).filter((type) => type === 'email.delivered')).toHaveLength(1);
  }, 120_000);

  it.concurrent('an event naming every recipient after one was refused is decided by the tally, not written in one step (bounced, not delivered)', async () => {
    const { services } = stack();
    const [a, b] = ['guard-a@example.net', 'guard-b@example.net'];
    const email = await sentEmail([a, b]);
    const mail = sesMailOf(email, [a, b]);
    const at = new Date().toISOString();
    const refusal = suppressionListRefusal(mail, b, at);
    expect(await applySesEvent(services, refusal)).toBe('applied');
    expect(await emailOf(account, email.id)).toMatchObject({ status: 'sent' });
    // A Delivery naming both: the one-write path's condition (no refusal) fails, and the tally says bounced.
    const delivery = JSON.stringify({ eventType: 'Delivery', mail, delivery: { timestamp: at, recipients: [a, b] } });
    expect(await applySesEvent(services, delivery)).toBe('applied');
    expect(await emailOf(account, email.id)).toMatchObject({ status: 'bounced', bounce_type: 'not_sent', delivered_at: at });
  }, 120_000);

  it.concurrent("a multi-recipient email's later Delivery events write the email once each (the tally), not once per conditional attempt", async () => {
    const { services } = stack();
    const recipients = Array.from({ length: 6 }, (_, n) => `many${n}@example.net`);
    const email = await sentEmail(recipients);
    const mail = sesMailOf(email, recipients);
    const firstAt = new Date().toISOString();
    const delivery = (address: string, at: string) =>
      JSON.stringify({ eventType: 'Delivery', mail, delivery: { timestamp: at, recipients: [address] } });
    // Every DynamoDB call the worker's use case makes while the six events are applied in turn.
    const calls = await tableCallsOf(async () => {
      for (const [n, address] of recipients.entries())
        expect(await applySesEvent(services, delivery(address, n === 0 ? firstAt : new Date(Date.now() + n * 1000).toISOString()))).toBe(
          'applied',
        );
    });
    const writes = calls.filter((name) => name === 'UpdateCommand');
    // The first: the tally and the move to delivered. Each later one: the tally only (it shows the email
    // delivered with delivered_at set, so no conditional write could apply). Before: six writes each.
    expect(writes).toHaveLength(recipients.length + 1);
    const deliveredAt = firstAt;
    expect(await emailOf(account, email.id)).toMatchObject({ status: 'delivered', last_event: 'delivered', delivered_at: deliveredAt });
    // A recipient bounced by the receiving side after that still moves it on: the basis does not hide what can apply.
    const bounce = JSON.stringify({
      eventType: 'Bounce',
      mail,
      bounce: {
        bounceType: 'Permanent',
        bounceSubType: 'General',
        timestamp: new Date().toISOString(),
        bouncedRecipients: [{ emailAddress: recipients[5], status: '5.1.1' }],
      },
    });
    expect(await applySesEvent(services, bounce)).toBe('applied');
    expect(await emailOf(account, email.id)).toMatchObject({ status: 'bounced', last_event: 'bounced', delivered_at: deliveredAt });
  }, 120_000);

  it.concurrent('a Delivery of A and a suppression-list bounce of B applied at the same time always end bounced (not_sent), never failed', async () => {
    const { services } = stack();
    const rounds = await Promise.all(
      Array.from({ length: 40 }, async (_, round) => {
        const [a, b] = [`a${round}@example.net`, `b${round}@example.net`];
        const email = await sentEmail([a, b]);
        const mail = sesMailOf(email, [a, b]);
        const at = new Date().toISOString();
        const delivery = JSON.stringify({ eventType: 'Delivery', mail, delivery: { timestamp: at, recipients: [a] } });
        const refusal = suppressionListRefusal(mail, b, at);
        // Both orders of starting, racing in the same instant on the real table.
        await Promise.all(
          round % 2
            ? [applySesEvent(services, delivery), applySesEvent(services, refusal)]
            : [applySesEvent(services, refusal), applySesEvent(services, delivery)],
        );
        return emailOf(account, email.id);
      }),
    );
    for (const email of rounds)
      expect(email).toMatchObject({ status: 'bounced', last_event: 'bounced', bounce_type: 'not_sent', delivered_at: expect.any(String) });
  }, 180_000);

  // Tenants.
  /** A verified domain owned by the tenant, with `settings` PATCHed. */
  async function tenantDomain(tenant: string, settings: Record<string, unknown> = {}): Promise<string> {
    const name = uniqueDomain();
    const added = await api('POST', '/domains', { key: account.key, body: { name, tenant } });
    expect(added.status).toBe(201);
    await publishAll(added.body.domain.records);
    expect(
      (await api('POST', `/domains/${added.body.domain.id}`, { key: account.key, body: { action: 'verify' } })).body.domain.status,
    ).toBe('verified');
    if (Object.keys(settings).length)
      expect((await api('PATCH', `/domains/${added.body.domain.id}`, { key: account.key, body: settings })).status).toBe(200);
    return name;
  }

  it.concurrent('a TLS-enforced tenant domain sends WITH the tenant name, through the TLS-required configuration set', async () => {
    const tenant = await createTenant(account);
    const domain = await tenantDomain(tenant.external_id, { tls_mode: 'enforced' });
    const sent = await api('POST', '/emails', {
      key: account.key,
      body: { from: `hi@${domain}`, to: 'someone@example.com', subject: 'tls', text: 't', tenant: tenant.external_id },
    });
    expect(sent.status).toBe(200);
    await waitForStatus(account, sent.body.id, 'delivered');
    // One message at SES, named by the tenant: no refusal, no fallback to the account level.
    const messages = await sesMessagesFor(sent.body.id, { raw: false });
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({ tenant_name: tenant.id, configuration_set: 'mailservice-outbound-tls-required' });
  });

  it.concurrent("a paused (DISABLED) SES tenant's email is not sent around the pause", async () => {
    const tenant = await createTenant(account);
    const domain = await tenantDomain(tenant.external_id);
    const { Tenant } = await view.client().send(new GetTenantCommand({ TenantName: tenant.id }));
    const status = (SendingStatus: 'ENABLED' | 'DISABLED') =>
      view.client().send(
        new UpdateReputationEntityCustomerManagedStatusCommand({
          ReputationEntityType: 'RESOURCE',
          ReputationEntityReference: Tenant!.TenantArn!,
          SendingStatus,
        }),
      );
    await status('DISABLED');
    try {
      const sent = await api('POST', '/emails', {
        key: account.key,
        body: { from: `hi@${domain}`, to: 'someone@example.com', subject: 'paused', text: 't', tenant: tenant.external_id },
      });
      expect(sent.status).toBe(200);
      // Failed (or held, should SES's pause be retried): never sent at the account level.
      await waitFor(async () => (await emailOf(account, sent.body.id)).status === 'failed', 'the paused send refused', 30_000).catch(
        () => undefined,
      );
      const email = await emailOf(account, sent.body.id);
      expect(['failed', 'queued']).toContain(email.status);
      if (email.status === 'failed') expect(email.bounce_reason).toMatch(/SendingPausedException/);
      expect(await sesMessagesFor(sent.body.id, { raw: false })).toEqual([]);
    } finally {
      await status('ENABLED');
    }
  });
});
