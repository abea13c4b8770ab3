/**
 * A held send (shared/usecases/delivery/deliver-paced.ts: its turn in SES's send rate is far, or SES's account
 * is paused, so its message goes back to the send queue with a delay) leases the email until its retry (EmailRepository.holdForRetry):
 * a duplicate message of the email arriving during the hold (the API and the outbox both enqueue a send;
 * SQS delivers at least once) does nothing: no claim, no second turn in the budget, no second message, no
 * send. After the hold the email's own message sends it, once.
 *
 * The real use case against DynamoDB Local and the stack's local SES. The email and the send budget live
 * in a private copy of the table, so the stack's outbox relay and send workers never take this email, and
 * the budget paced to (1 recipient a second, spoken for ten minutes ahead) is this test's alone. The wait is
 * on clocks the test moves: the service clock (leases) and the pace's real time move together, as time
 * does, so a ten-minute hold takes no time. The held message's return is this test's call (the fake
 * queue records it). SES's account pause is SES's own error from a SendEmail client that answers it while
 * the test says so (the local SES's account switch would pause every file on the shared stack).
 */
import { randomUUID } from 'node:crypto';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { SESv2Client } from '@aws-sdk/client-sesv2';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { ensureTemplateTable } from '../support/template-table';
import { createAwsClients } from '#shared/adapters/aws/clients';
import { createSesClient, createSesSendClient } from '#shared/adapters/aws/ses-clients';
import { SesMailer } from '#shared/adapters/aws/ses-mailer';
import { loadConfig } from '#shared/config/config';
import type { Email } from '#shared/domain/emails/email';
import { newId } from '#shared/domain/ids';
import type { SendMessage } from '#shared/domain/messages';
import type { ServiceEvent } from '#shared/domain/webhooks/event';
import { EmailRepository } from '#shared/adapters/store/emails/repository';
import { keys } from '#shared/adapters/store/keys';
import { SesSendBudget } from '#shared/adapters/store/ses-send-budget';
import { deliverPaced, type PacedDeliveryDeps } from '#shared/usecases/delivery/deliver-paced';
import { inlineWaitMs } from '#shared/usecases/delivery/pace';
import { HOLD_RETRY_MS } from '#shared/domain/ses/send-quota';
import { sesMessagesFor, stack, uniqueEmail } from './harness/stack';

const HOLD_MS = 10 * 60_000;
const RATE = 1;

describe('a send held for its turn in SES’s rate', () => {
  let table: { client: ReturnType<typeof createAwsClients>['dynamo']; name: string };
  let emails: EmailRepository;
  let budget: SesSendBudget;
  /** How far the test has moved time (both clocks). */
  let offset = 0;
  const now = () => Date.now() + offset;
  const requeued: { message: SendMessage; delaySeconds: number }[] = [];
  const published: ServiceEvent[] = [];
  let deps: PacedDeliveryDeps;
  /** While true, SendEmail answers as SES does for a paused account. */
  let sesPaused = false;
  let pausableMailer: SesMailer;
  const clients: { destroy(): void }[] = [];

  beforeAll(async () => {
    const { services } = stack();
    const config = loadConfig(process.env);
    const name = `send-hold-test-${randomUUID().slice(0, 8)}`;
    await ensureTemplateTable(new DynamoDBClient({ region: config.region, endpoint: config.endpoints.dynamodb }), name);
    table = { client: createAwsClients(config).dynamo, name };
    emails = new EmailRepository(table, undefined, config.recovery);
    budget = new SesSendBudget(table);
    const sender = createSesSendClient(config);
    const control = createSesClient(config);
    clients.push(sender, control);
    const pausable = Object.assign(Object.create(sender) as SESv2Client, {
      send: (command: never) =>
        sesPaused
          ? Promise.reject(Object.assign(new Error('Email sending is disabled for this account.'), { name: 'SendingPausedException' }))
          : sender.send(command),
    });
    pausableMailer = new SesMailer(control, config.sesConfigurationSet, () => pausable);
    deps = {
      ...services,
      emails,
      events: { publish: async (batch) => void published.push(...batch) },
      sendQueue: { requeue: async (message, delaySeconds) => void requeued.push({ message, delaySeconds }) },
      clock: { now: () => new Date(now()) },
      leaseMs: 45_000,
      pace: {
        budget,
        sendRate: async () => RATE,
        accountSendingEnabled: async () => true,
        now,
        sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
      },
    };
  });

  afterAll(() => {
    for (const client of clients) client.destroy();
  });

  /** A queued email from the sandbox domain, as accepted (the stack's own tables never see it). */
  async function queuedEmail(): Promise<Email> {
    const at = new Date(now()).toISOString();
    const email: Email = {
      id: newId('msg', now()),
      account_id: newId('acc'),
      from: `Hold <hold@${stack().services.sandboxDomain}>`,
      to: [uniqueEmail('held')],
      cc: [],
      bcc: [],
      reply_to: [],
      subject: 'held for its turn',
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
      created_at: at,
      tenant: null,
      provider_message_id: null,
    };
    await emails.create(email, { inline: { text: 'sent once, after its turn' } });
    return email;
  }

  const budgetTat = async () =>
    Number(
      (await table.client.send(new GetCommand({ TableName: table.name, Key: keys.sesSendBudget(0), ConsistentRead: true }))).Item?.tat,
    );
  const sendAttempts = async (id: string) =>
    Number(
      (await table.client.send(new GetCommand({ TableName: table.name, Key: keys.email(id), ConsistentRead: true }))).Item?.send_attempts ??
        0,
    );

  it('ignores a duplicate message during a ten-minute hold, then sends the email once when its turn comes', async () => {
    // The budget is spoken for ten minutes ahead: the next send's turn is then.
    await budget.reserve((HOLD_MS / 1000) * RATE, RATE, now());
    const email = await queuedEmail();

    expect(await deliverPaced(deps, { email_id: email.id })).toBe('held');
    expect(requeued).toHaveLength(1);
    const held = requeued[0]!;
    expect(held.message).toMatchObject({ email_id: email.id, paced_at: expect.any(Number) });
    const turn = held.message.paced_at!;
    expect(turn - now()).toBeGreaterThan(HOLD_MS - 60_000);
    const tat = await budgetTat();
    const attempts = await sendAttempts(email.id);

    // Duplicates of the email's first message: at once, five minutes into the hold, and just before it ends (5 s
    // before: 1.5 s was passed once in a whole run, the machine 100% busy between reading the clock and the send).
    for (const at of [0, 5 * 60_000, turn - inlineWaitMs(RATE) - 5000 - Date.now()]) {
      offset = at;
      expect(await deliverPaced(deps, { email_id: email.id })).toBe('deferred');
    }
    expect(requeued).toHaveLength(1);
    expect(await budgetTat()).toBe(tat);
    expect(await sendAttempts(email.id)).toBe(attempts);
    expect((await emails.get(email.id))?.email.status).toBe('queued');
    expect(await sesMessagesFor(email.id, { raw: false })).toEqual([]);
    expect(published).toEqual([]);

    // The held message back at its time (the queue's delay): sent, once; a later duplicate finds it sent.
    offset = turn - inlineWaitMs(RATE) - Date.now();
    expect(await deliverPaced(deps, held.message)).toBe('sent');
    expect(await deliverPaced(deps, { email_id: email.id })).toBe('republished');
    expect(await sesMessagesFor(email.id, { raw: false })).toHaveLength(1);
    expect((await emails.get(email.id))?.email.status).toBe('sent');
    expect(requeued).toHaveLength(1);
  }, 60_000);

  it("ignores a duplicate message during an account pause's hold, even once SES sends again, then sends the email once", async () => {
    // Not paced here (no rate, as when GetAccount fails): the hold is the account's alone.
    const paused = {
      ...deps,
      mailer: pausableMailer,
      pace: { ...deps.pace, sendRate: async () => null, accountSendingEnabled: async () => !sesPaused },
    };
    requeued.length = 0;
    const email = await queuedEmail();
    sesPaused = true;
    expect(await deliverPaced(paused, { email_id: email.id })).toBe('held');
    expect(requeued).toEqual([
      { message: { email_id: email.id, held_since: expect.any(Number) }, delaySeconds: HOLD_RETRY_MS.account_paused / 1000 },
    ]);
    const held = requeued[0]!;
    const retryAt = now() + HOLD_RETRY_MS.account_paused;
    // SES sends again; duplicates during the hold still wait for the email's own message.
    sesPaused = false;
    const start = offset;
    for (const at of [start + 60_000, start + 4 * 60_000]) {
      offset = at;
      expect(await deliverPaced(paused, { email_id: email.id })).toBe('deferred');
    }
    expect(await sesMessagesFor(email.id, { raw: false })).toEqual([]);
    expect((await emails.get(email.id))?.email.status).toBe('queued');

    offset = retryAt - Date.now();
    expect(await deliverPaced(paused, held.message)).toBe('sent');
    expect(await deliverPaced(paused, { email_id: email.id })).toBe('republished');
    expect(await sesMessagesFor(email.id, { raw: false })).toHaveLength(1);
    expect(requeued).toHaveLength(1);
  }, 60_000);
});
