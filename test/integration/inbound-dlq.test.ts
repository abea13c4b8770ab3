/**
 * The inbound worker's dead-letter path, failed on purpose: a queue message whose raw message is missing
 * from the bucket (the worker's S3 read fails, a real failure of the local S3) is retried until
 * maxReceiveCount (5; visibility 1 s on the test stack) and lands in mailservice-inbound-dlq, recording
 * nothing. Once the cause is fixed (the raw message put where it names), redriving it (what SQS's DLQ
 * redrive does: from the DLQ back to the source queue) gets it recorded like any other message.
 *
 * Beside it, a queue message of a raw message the MX listener discarded (it answered no 250) is dropped
 * by the worker: never recorded, never in the DLQ.
 */
import {
  ChangeMessageVisibilityCommand,
  DeleteMessageCommand,
  GetQueueUrlCommand,
  ReceiveMessageCommand,
  SendMessageCommand,
  type SQSClient,
} from '@aws-sdk/client-sqs';
import { createSqsClient } from '#shared/adapters/aws/sqs-client';
import { loadConfig } from '#shared/config/config';
import { inboundKeys } from '#shared/domain/inbound/content-keys';
import { newId, ulid } from '#shared/domain/ids';
import type { CheckedInboundMessage } from '#shared/domain/messages';
import { peekBodies } from '../support/queue-peek';
import { receivingDomain } from './harness/inbound';
import { api, newAccount, stack, waitFor, type TestAccount } from './harness/stack';

describe('the inbound worker failing on purpose', () => {
  let account: TestAccount;
  let domain: Awaited<ReturnType<typeof receivingDomain>>;
  let sqs: SQSClient;
  let dlqUrl: string;

  /** A queue message for the domain, as the MX listener writes one (nothing stored at its raw key yet). */
  const queueMessage = (local: string): CheckedInboundMessage => ({
    email_id: newId('inb'),
    account_id: account.id,
    domain_id: domain.id,
    tenant_id: null,
    tenant: null,
    raw_key: inboundKeys.raw(ulid()),
    size: 0,
    received_at: new Date().toISOString(),
    mail_from: 'someone@example.org',
    rcpt_to: [domain.address(local)],
    remote_address: '192.0.2.25',
    helo: 'sender.example-mail.test',
    tls: true,
    authentication: { spf: { result: 'none', domain: 'example.org' }, dkim: [], dmarc: { result: 'none', domain: null, policy: null } },
  });

  /** Which of these email ids are in the DLQ (peeked: the messages stay). */
  const inDlq = async (emailIds: string[]): Promise<string[]> => {
    const seen = (await peekBodies<{ email_id?: string }>(sqs, dlqUrl)).map((body) => body?.email_id);
    return emailIds.filter((id) => seen.includes(id));
  };

  /** The DLQ redrive for one message: received from the DLQ, sent to the inbound queue as it was, deleted from the DLQ. */
  const redrive = async (emailId: string): Promise<void> => {
    const { services } = stack();
    await waitFor(
      async () => {
        const { Messages = [] } = await sqs.send(
          new ReceiveMessageCommand({ QueueUrl: dlqUrl, MaxNumberOfMessages: 10, VisibilityTimeout: 5 }),
        );
        const found = Messages.find((message) => (JSON.parse(message.Body ?? '{}') as { email_id?: string }).email_id === emailId);
        // Any other message goes back at once, as it was.
        for (const other of Messages.filter((message) => message !== found))
          await sqs.send(
            new ChangeMessageVisibilityCommand({ QueueUrl: dlqUrl, ReceiptHandle: other.ReceiptHandle!, VisibilityTimeout: 0 }),
          );
        if (!found) return false;
        await sqs.send(new SendMessageCommand({ QueueUrl: services.config.inboundQueueUrl, MessageBody: found.Body! }));
        await sqs.send(new DeleteMessageCommand({ QueueUrl: dlqUrl, ReceiptHandle: found.ReceiptHandle! }));
        return true;
      },
      `${emailId} received from the DLQ`,
      20_000,
      200,
    );
  };

  const status = async (emailId: string) => (await api('GET', `/received-emails/${emailId}`, { key: account.key })).status;

  beforeAll(async () => {
    process.env.LOG_LEVEL = 'silent';
    account = await newAccount({ plan: 'scale', paymentMethod: true });
    domain = await receivingDomain(account);
    sqs = createSqsClient(loadConfig(process.env));
    dlqUrl = (await sqs.send(new GetQueueUrlCommand({ QueueName: stack().info.resources!.queues.inbound!.dlqName }))).QueueUrl!;
  });

  afterAll(() => sqs?.destroy());

  it('moves a message it cannot process to the DLQ after maxReceiveCount, and records it once redriven after the fix', async () => {
    const { services } = stack();
    const broken = queueMessage('dlq');
    // The listener discarded this one's raw message (it answered 451): the worker drops its queue message.
    const discarded = queueMessage('discarded');
    await services.inboundRawMarkers.begin(discarded.raw_key, new Date(), Date.now() + 60_000);
    expect(await services.inboundRawMarkers.discard(discarded.raw_key, Date.now())).toBe(true);

    await services.inboundQueue.enqueueAll([broken, discarded]);
    // 5 receives, 2 s apart at least: in the DLQ within seconds.
    await waitFor(async () => (await inDlq([broken.email_id])).length === 1, `${broken.email_id} in the inbound DLQ`, 45_000, 500);
    expect(await status(broken.email_id)).toBe(404);

    // The cause fixed: the raw message is where the queue message says.
    const raw = `From: Someone <someone@example.org>\r\nTo: ${broken.rcpt_to[0]}\r\nSubject: back from the DLQ\r\nMessage-ID: <dlq-${broken.email_id}@example.org>\r\n\r\nredriven\r\n`;
    await services.blobs.put(broken.raw_key, raw, 'message/rfc822');
    await redrive(broken.email_id);

    const email = await waitFor(
      async () => {
        const response = await api('GET', `/received-emails/${broken.email_id}`, { key: account.key });
        return response.status === 200 ? response.body.received_email : undefined;
      },
      `${broken.email_id} recorded after the redrive`,
      20_000,
      200,
    );
    expect(email).toMatchObject({
      id: broken.email_id,
      subject: 'back from the DLQ',
      rcpt_to: broken.rcpt_to,
      message_id: `<dlq-${broken.email_id}@example.org>`,
    });
    expect(email.text.trim()).toBe('redriven');
    expect(await inDlq([broken.email_id])).toEqual([]);
    // The discarded one had as many chances to fail, and more time: dropped, neither recorded nor dead-lettered.
    expect(await inDlq([discarded.email_id])).toEqual([]);
    expect(await status(discarded.email_id)).toBe(404);
  }, 90_000);
});
