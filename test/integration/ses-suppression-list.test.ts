/**
 * SES's account-level suppression list and feedback forwarding against the running local cloud, whose
 * SES keeps that list as SES does (on by default, shared by every customer and tenant of the one SES
 * account: docs/local-cloud/ses.md, "Suppression list"). Our configuration sets turn it off, so one
 * customer's hard bounce never stops another customer's mail and `DELETE /suppressions` is the whole
 * story; our identities turn feedback forwarding off, so no bounce or complaint mail reaches senders.
 *
 * Addresses at hard-bounces.test hard-bounce as real addresses (LOCAL_SES_BOUNCE_RECIPIENTS, global
 * setup). An address put on SES's list with PutSuppressedDestination stands for one SES listed after a
 * hard bounce through a set that records them.
 */
import {
  CreateConfigurationSetCommand,
  CreateConfigurationSetEventDestinationCommand,
  GetConfigurationSetCommand,
  GetEmailIdentityCommand,
  GetSuppressedDestinationCommand,
  PutSuppressedDestinationCommand,
  SendEmailCommand,
  SESv2Client,
} from '@aws-sdk/client-sesv2';
import { CreateTopicCommand, SNSClient, SubscribeCommand } from '@aws-sdk/client-sns';
import { CreateQueueCommand, GetQueueAttributesCommand, ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { randomUUID } from 'node:crypto';
import { CONFIGURATION_SET } from '#infra/definitions';
import { tlsRequiredConfigurationSet } from '#shared/adapters/aws/ses-configuration-sets';
import { verifiedDomain } from './harness/domains';
import { api, newAccount, sesMessages, sesMessagesFor, stack, waitFor, waitForStatus, type TestAccount } from './harness/stack';

const SANDBOX = 'sandbox.mailservice.dev';
const unique = () => randomUUID().slice(0, 8);

let ses: SESv2Client;
let a: TestAccount;
let b: TestAccount;
let aDomain: string;
let bDomain: string;

beforeAll(async () => {
  const { info } = stack();
  ses = new SESv2Client({ endpoint: info.endpoints.sesv2, region: info.region, maxAttempts: 1 });
  [a, b] = await Promise.all([newAccount({ plan: 'pro', paymentMethod: true }), newAccount({ plan: 'pro', paymentMethod: true })]);
  [aDomain, bDomain] = (await Promise.all([verifiedDomain(a), verifiedDomain(b)])).map((d) => d.name) as [string, string];
});

afterAll(() => ses?.destroy());

async function send(account: TestAccount, from: string, to: string): Promise<string> {
  const response = await api('POST', '/emails', { key: account.key, body: { from, to, subject: 'hello', text: 'hi' } });
  expect({ status: response.status, error: response.body.error }).toEqual({ status: 200, error: undefined });
  return response.body.id as string;
}

const onSesList = async (address: string): Promise<string | undefined> => {
  try {
    return (await ses.send(new GetSuppressedDestinationCommand({ EmailAddress: address }))).SuppressedDestination?.Reason;
  } catch (error) {
    if ((error as Error).name === 'NotFoundException') return undefined;
    throw error;
  }
};

/**
 * A configuration set WITHOUT our override (what SES's default does to a send), publishing to a probe
 * topic and queue of this test only; the event types SES published for a send through it.
 */
async function setWithoutOverride(): Promise<{
  send: (from: string, to: string) => Promise<string>;
  eventsOf: (messageId: string, count: number) => Promise<string[]>;
  close: () => void;
}> {
  const { info } = stack();
  const sns = new SNSClient({ endpoint: info.endpoints.sns, region: info.region });
  const sqs = new SQSClient({ endpoint: info.endpoints.sqs, region: info.region });
  const name = `no-override-${unique()}`;
  const { TopicArn } = await sns.send(new CreateTopicCommand({ Name: name }));
  const { QueueUrl } = await sqs.send(new CreateQueueCommand({ QueueName: name }));
  const { Attributes } = await sqs.send(new GetQueueAttributesCommand({ QueueUrl, AttributeNames: ['QueueArn'] }));
  await sns.send(
    new SubscribeCommand({ TopicArn, Protocol: 'sqs', Endpoint: Attributes!.QueueArn!, Attributes: { RawMessageDelivery: 'true' } }),
  );
  await ses.send(new CreateConfigurationSetCommand({ ConfigurationSetName: name }));
  await ses.send(
    new CreateConfigurationSetEventDestinationCommand({
      ConfigurationSetName: name,
      EventDestinationName: 'probe',
      EventDestination: { Enabled: true, MatchingEventTypes: ['SEND', 'DELIVERY', 'BOUNCE'], SnsDestination: { TopicArn } },
    }),
  );
  const seen = new Map<string, { eventType: string; bounce?: { bounceSubType: string } }[]>();
  const eventsOf = (messageId: string, count: number) =>
    waitFor(async () => {
      const { Messages = [] } = await sqs.send(new ReceiveMessageCommand({ QueueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 1 }));
      for (const m of Messages) {
        const event = JSON.parse(m.Body!) as { eventType: string; mail: { messageId: string }; bounce?: { bounceSubType: string } };
        seen.set(event.mail.messageId, [...(seen.get(event.mail.messageId) ?? []), event]);
      }
      const events = seen.get(messageId) ?? [];
      return events.length >= count ? events.map((e) => (e.bounce ? `Bounce/${e.bounce.bounceSubType}` : e.eventType)) : undefined;
    }, `${count} events of ${messageId}`);
  const sendThrough = async (from: string, to: string): Promise<string> => {
    const content = { Simple: { Subject: { Data: 'probe' }, Body: { Text: { Data: 'x' } } } };
    return (
      await ses.send(
        new SendEmailCommand({ FromEmailAddress: from, Destination: { ToAddresses: [to] }, Content: content, ConfigurationSetName: name }),
      )
    ).MessageId!;
  };
  return {
    send: sendThrough,
    eventsOf,
    close: () => {
      sns.destroy();
      return sqs.destroy();
    },
  };
}

describe("SES's account-level suppression list is off for our configuration sets", () => {
  it('both sets carry SuppressionOptions.SuppressedReasons []', async () => {
    for (const name of [CONFIGURATION_SET.name, tlsRequiredConfigurationSet(CONFIGURATION_SET.name)]) {
      expect((await ses.send(new GetConfigurationSetCommand({ ConfigurationSetName: name }))).SuppressionOptions).toEqual({
        SuppressedReasons: [],
      });
    }
  });

  it("customer A's hard bounce stays off SES's list (a set without the override would record it)", async () => {
    const address = `gone-${unique()}@hard-bounces.test`;
    const email = await waitForStatus(a, await send(a, `app@${aDomain}`, address), 'bounced');
    expect(email).toMatchObject({ bounce_type: 'hard' });
    expect(await onSesList(address)).toBeUndefined();

    // The same bounce through a set with SES's default settings: SES lists the address.
    const probe = await setWithoutOverride();
    try {
      expect(await probe.eventsOf(await probe.send(`probe@${aDomain}`, address), 2)).toEqual(['Send', 'Bounce/General']);
      expect(await onSesList(address)).toBe('BOUNCE');
    } finally {
      probe.close();
    }
  });

  it("an address on SES's list still gets customer B's mail (SES would not send it with its default settings)", async () => {
    const address = `reader-${unique()}@example.org`;
    await ses.send(new PutSuppressedDestinationCommand({ EmailAddress: address, Reason: 'BOUNCE' }));

    const probe = await setWithoutOverride();
    try {
      expect(await probe.eventsOf(await probe.send(`probe@${bDomain}`, address), 2)).toEqual(['Send', 'Bounce/OnAccountSuppressionList']);
    } finally {
      probe.close();
    }

    const id = await send(b, `app@${bDomain}`, address);
    expect(await waitForStatus(b, id, 'delivered')).toMatchObject({ bounce_type: null });
    expect((await sesMessagesFor(id, { raw: false })).flatMap((m) => m.events.map((e) => e.type))).toContain('Delivery');
  });

  it('DELETE /suppressions, then a send reaches the recipient (SES has no list of its own in the way)', async () => {
    const address = `back-${unique()}@example.org`;
    // Listed by us and by SES (as after a hard bounce through a set that records them).
    await ses.send(new PutSuppressedDestinationCommand({ EmailAddress: address, Reason: 'BOUNCE' }));
    expect((await api('POST', '/suppressions', { key: a.key, body: { email: address } })).status).toBe(201);
    const refused = await api('POST', '/emails', { key: a.key, body: { from: `app@${aDomain}`, to: address, subject: 's', text: 't' } });
    expect(refused.status).toBe(422);

    expect((await api('DELETE', `/suppressions?email=${encodeURIComponent(address)}`, { key: a.key })).status).toBe(200);
    const id = await send(a, `app@${aDomain}`, address);
    await waitForStatus(a, id, 'delivered');
    const [message] = await sesMessagesFor(id, { raw: false });
    expect(message).toMatchObject({ to: [address] });
    expect(message!.events.map((e) => e.type)).toContain('Delivery');
  });
});

describe('feedback forwarding is off for our identities', () => {
  it('our domains and the sandbox domain have FeedbackForwardingStatus false', async () => {
    for (const identity of [aDomain, SANDBOX]) {
      expect((await ses.send(new GetEmailIdentityCommand({ EmailIdentity: identity }))).FeedbackForwardingStatus).toBe(false);
    }
  });

  it('a bounce and a complaint put no feedback mail into the local mailbox', async () => {
    const from = `noreply-${unique()}@${aDomain}`;
    const bounced = await send(a, from, `bounce+${unique()}@simulator.amazonses.com`);
    const complained = await send(a, from, `complaint+${unique()}@simulator.amazonses.com`);
    await waitForStatus(a, bounced, 'bounced');
    // The email as last seen, named when the wait times out (it did once in a whole run: never `complained` in 30 s).
    let seen: unknown;
    await waitFor(async () => {
      seen = (await api('GET', `/emails/${complained}`, { key: a.key })).body.email;
      return (seen as { last_event?: string }).last_event === 'complained';
    }, 'the complaint').catch((error: Error) => {
      throw new Error(`${error.message}; the email as last seen: ${JSON.stringify(seen)}`);
    });
    // SES puts feedback mail into the mailbox before it answers the send: by now it would be there.
    expect(await sesMessages({ to: from })).toEqual([]);
  });
});
