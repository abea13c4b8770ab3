/**
 * Email feedback forwarding in the emulator, through the real SESv2 client: on by default
 * (GetEmailIdentity's FeedbackForwardingStatus), PutEmailIdentityFeedbackAttributes, and the bounce and
 * complaint mail SES sends to the Return-Path (else the sender), which lands in the local mailbox without
 * an email_id tag; off only when the send has an event destination for that kind of feedback.
 */
import {
  CreateConfigurationSetCommand,
  CreateConfigurationSetEventDestinationCommand,
  GetEmailIdentityCommand,
  PutEmailIdentityFeedbackAttributesCommand,
  SendEmailCommand,
} from '@aws-sdk/client-sesv2';
import { Harness, rawMessage } from './harness';
import { verifiedDomainIdentity } from './verified-domain';

let h: Harness;
let n = 0;

beforeAll(async () => {
  h = await Harness.start({ outcomeDelayMs: 10 });
  await h.client.send(new CreateConfigurationSetCommand({ ConfigurationSetName: 'publishing' }));
  await h.client.send(
    new CreateConfigurationSetEventDestinationCommand({
      ConfigurationSetName: 'publishing',
      EventDestinationName: 'to-sns',
      EventDestination: {
        Enabled: true,
        MatchingEventTypes: ['SEND', 'DELIVERY', 'BOUNCE', 'COMPLAINT'],
        SnsDestination: { TopicArn: h.topicArn },
      },
    }),
  );
  await h.client.send(new CreateConfigurationSetCommand({ ConfigurationSetName: 'deliveries-only' }));
  await h.client.send(
    new CreateConfigurationSetEventDestinationCommand({
      ConfigurationSetName: 'deliveries-only',
      EventDestinationName: 'to-sns',
      EventDestination: { Enabled: true, MatchingEventTypes: ['SEND', 'DELIVERY'], SnsDestination: { TopicArn: h.topicArn } },
    }),
  );
});

afterAll(async () => {
  await h.stop();
});

/** A fresh verified sending domain (its own forwarding setting). */
async function domain(): Promise<string> {
  const name = `fwd${++n}.example.net`;
  await verifiedDomainIdentity(h.client, h.dns, name);
  return name;
}

async function send(from: string, to: string, options: { set?: string; returnPath?: string } = {}): Promise<string> {
  const lines = [
    `From: ${from}`,
    `To: ${to}`,
    'Subject: the original',
    ...(options.returnPath ? [`Return-Path: <${options.returnPath}>`] : []),
    '',
    'body',
  ];
  const out = await h.client.send(
    new SendEmailCommand({
      Content: { Raw: { Data: rawMessage(lines) } },
      EmailTags: [{ Name: 'email_id', Value: `em_${n}` }],
      ...(options.set ? { ConfigurationSetName: options.set } : {}),
    }),
  );
  return out.MessageId!;
}

const feedbackTo = (address: string) => h.ses.listMessages().filter((m) => m.to.includes(address));

describe('PutEmailIdentityFeedbackAttributes', () => {
  it('is on by default and can be turned off and on (FeedbackForwardingStatus)', async () => {
    const name = await domain();
    expect((await h.client.send(new GetEmailIdentityCommand({ EmailIdentity: name }))).FeedbackForwardingStatus).toBe(true);
    await h.client.send(new PutEmailIdentityFeedbackAttributesCommand({ EmailIdentity: name, EmailForwardingEnabled: false }));
    expect((await h.client.send(new GetEmailIdentityCommand({ EmailIdentity: name }))).FeedbackForwardingStatus).toBe(false);
    await h.client.send(new PutEmailIdentityFeedbackAttributesCommand({ EmailIdentity: name, EmailForwardingEnabled: true }));
    expect((await h.client.send(new GetEmailIdentityCommand({ EmailIdentity: name }))).FeedbackForwardingStatus).toBe(true);
  });

  it('answers NotFoundException for an unknown identity', async () => {
    await expect(
      h.client.send(new PutEmailIdentityFeedbackAttributesCommand({ EmailIdentity: 'nowhere.example.net', EmailForwardingEnabled: false })),
    ).rejects.toMatchObject({
      name: 'NotFoundException',
      $metadata: { httpStatusCode: 404 },
    });
  });
});

describe('feedback mail', () => {
  it('mails a bounce to the sender, From MAILER-DAEMON@amazonses.com, without an email_id tag', async () => {
    const sender = `app@${await domain()}`;
    const id = await send(sender, 'bounce@simulator.amazonses.com', { set: 'publishing' });
    const [feedback, ...more] = feedbackTo(sender);
    expect(more).toEqual([]);
    expect(feedback).toMatchObject({
      from: 'MAILER-DAEMON@amazonses.com',
      to: [sender],
      subject: 'Delivery Status Notification (Failure)',
      tags: {},
      configuration_set: null,
    });
    expect(feedback!.raw).toContain('bounce@simulator.amazonses.com');
    expect(feedback!.raw).toContain('Subject: the original');
    expect(feedback!.raw).toContain('message/delivery-status');
    // The service's per-email query (email_id tag) finds the original only.
    expect(h.ses.findMessages({ emailId: `em_${n}`, tags: [], raw: false }).map((m) => m.id)).toEqual([id]);
  });

  it('goes to the Return-Path when the message has one', async () => {
    const name = await domain();
    await send(`app@${name}`, 'bounce@simulator.amazonses.com', { returnPath: `bounces@${name}` });
    expect(feedbackTo(`bounces@${name}`).map((m) => m.from)).toEqual(['MAILER-DAEMON@amazonses.com']);
    expect(feedbackTo(`app@${name}`)).toEqual([]);
  });

  it('mails a complaint, and nothing for a delivered message', async () => {
    const sender = `app@${await domain()}`;
    await send(sender, 'complaint@simulator.amazonses.com', { set: 'publishing' });
    await send(sender, 'success@simulator.amazonses.com', { set: 'publishing' });
    expect(feedbackTo(sender).map((m) => m.from)).toEqual(['complaints@email-abuse.amazonses.com']);
  });

  it('turned off, sends none when the set publishes bounces and complaints, but still does when nothing else reports them', async () => {
    const name = await domain();
    await h.client.send(new PutEmailIdentityFeedbackAttributesCommand({ EmailIdentity: name, EmailForwardingEnabled: false }));
    await send(`published@${name}`, 'bounce@simulator.amazonses.com', { set: 'publishing' });
    await send(`published@${name}`, 'complaint@simulator.amazonses.com', { set: 'publishing' });
    expect(feedbackTo(`published@${name}`)).toEqual([]);
    await send(`unreported@${name}`, 'bounce@simulator.amazonses.com', { set: 'deliveries-only' });
    await send(`noset@${name}`, 'complaint@simulator.amazonses.com');
    expect(feedbackTo(`unreported@${name}`).map((m) => m.from)).toEqual(['MAILER-DAEMON@amazonses.com']);
    expect(feedbackTo(`noset@${name}`).map((m) => m.from)).toEqual(['complaints@email-abuse.amazonses.com']);
  });

  it('forwards a suppression-list bounce too', async () => {
    const sender = `app@${await domain()}`;
    await send(sender, 'suppressionlist@simulator.amazonses.com', { set: 'publishing' });
    const [feedback] = feedbackTo(sender);
    expect(feedback?.raw).toContain('suppressionlist@simulator.amazonses.com');
  });
});
