/**
 * Test harness: a real fauxqs (SNS + SQS) with a topic fanned out to a queue, the SES emulator
 * publishing to it, a DNS emulator it verifies identities against (with `example.com` a verified
 * sending domain, so tests may send from any address under it), and an SESv2 client pointed at it.
 */
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

import { SESv2Client } from '@aws-sdk/client-sesv2';
import { DeleteMessageBatchCommand, ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { startFauxqs } from 'fauxqs';
import { startDnsEmulator, type DnsEmulator } from '#localstack/emulators/dns';
import { startSesEmulator, type SesEmulator, type SesEmulatorOptions } from '#localstack/emulators/ses';
import { verifiedDomainIdentity } from './verified-domain';

export const credentials = { accessKeyId: 'local', secretAccessKey: 'local' };
export const region = 'us-east-1';
/** The sending domain every harness verifies (senders under it pass SendEmail's identity check). */
export const VERIFIED_DOMAIN = 'example.com';

type Fauxqs = Awaited<ReturnType<typeof startFauxqs>>;

export interface SesEventRecord {
  eventType: string;
  mail: {
    messageId: string;
    destination: string[];
    source: string;
    tags: Record<string, string[]>;
    headers: { name: string; value: string }[];
    commonHeaders: Record<string, unknown>;
    [k: string]: unknown;
  };
  [k: string]: unknown;
}

export class Harness {
  readonly logs: string[] = [];
  ses!: SesEmulator;
  client!: SESv2Client;
  dns!: DnsEmulator;
  private sqs!: SQSClient;
  private readonly received = new Map<string, SesEventRecord[]>();

  private constructor(
    readonly fx: Fauxqs,
    readonly topicArn: string,
    readonly queueUrl: string,
  ) {}

  static async start(sesOptions: Partial<SesEmulatorOptions> = {}): Promise<Harness> {
    const fx = await startFauxqs({ port: 0, logger: false });
    const { queueUrl } = fx.createQueue('events');
    const { topicArn } = fx.createTopic('ses-events');
    fx.subscribe({ topic: 'ses-events', queue: 'events' });
    const h = new Harness(fx, topicArn, queueUrl);
    h.sqs = new SQSClient({ endpoint: fx.address, region, credentials });
    h.dns = await startDnsEmulator();
    await h.startSes(sesOptions);
    return h;
  }

  async startSes(sesOptions: Partial<SesEmulatorOptions> = {}): Promise<void> {
    this.ses = await startSesEmulator({
      sns: { endpoint: this.fx.address, region, credentials },
      log: (m) => this.logs.push(m),
      dnsResolver: this.dns.address,
      ...sesOptions,
    });
    this.client?.destroy();
    this.client = new SESv2Client({ endpoint: this.ses.url, region, credentials, maxAttempts: 1 });
    // A test verifying against its own DNS server verifies its own senders.
    if (sesOptions.dnsResolver === undefined) await verifiedDomainIdentity(this.client, this.dns, VERIFIED_DOMAIN);
  }

  /** Pulls everything currently in the queue into the per-message buffer. */
  private async poll(): Promise<void> {
    const out = await this.sqs.send(new ReceiveMessageCommand({ QueueUrl: this.queueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 0 }));
    const messages = out.Messages ?? [];
    for (const m of messages) {
      const envelope = JSON.parse(m.Body ?? '{}') as { Type?: string; Message?: string };
      expect(envelope.Type).toBe('Notification');
      const event = JSON.parse(envelope.Message ?? '{}') as SesEventRecord;
      const list = this.received.get(event.mail.messageId) ?? [];
      list.push(event);
      this.received.set(event.mail.messageId, list);
    }
    if (messages.length > 0) {
      await this.sqs.send(
        new DeleteMessageBatchCommand({
          QueueUrl: this.queueUrl,
          Entries: messages.map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle ?? '' })),
        }),
      );
    }
  }

  /** Waits until `count` events arrived for the message (and a little longer, to catch extras). */
  async eventsFor(messageId: string, count: number, timeoutMs = 5000): Promise<SesEventRecord[]> {
    const deadline = Date.now() + timeoutMs;
    while ((this.received.get(messageId)?.length ?? 0) < count && Date.now() < deadline) {
      await this.poll();
      await sleep(15);
    }
    await sleep(80);
    await this.poll();
    return this.received.get(messageId) ?? [];
  }

  async stop(): Promise<void> {
    this.client?.destroy();
    this.sqs?.destroy();
    await this.ses?.stop();
    await this.dns?.stop();
    await this.fx.stop();
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/** A raw message with CRLF line breaks. */
export function rawMessage(lines: string[]): Buffer {
  return Buffer.from(lines.join('\r\n'), 'utf8');
}
