/**
 * The event outbox: owed events are stored with the message before SES answers, retried while SNS
 * fails, kept across a stop and re-published on the next start with the same content.
 */
import { CreateConfigurationSetCommand, CreateConfigurationSetEventDestinationCommand, SendEmailCommand } from '@aws-sdk/client-sesv2';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { buildMailObject } from '#localstack/emulators/ses/events';
import { DELIVERY_AFTER_DELAY_MS, eventRecord, planOutbox } from '#localstack/emulators/ses/outbox';
import type { ConfigurationSet } from '#localstack/emulators/ses/types';
import { Harness, credentials, region, sleep } from './harness';

const DEAD_SNS = { endpoint: 'http://127.0.0.1:1', region, credentials };
const FAST_RETRY = { baseMs: 20, maxMs: 100 };

let h: Harness;
let dataDir: string;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'ses-outbox-'));
  h = await Harness.start({ dataDir, outcomeDelayMs: 5, publishRetry: FAST_RETRY });
  await h.client.send(new CreateConfigurationSetCommand({ ConfigurationSetName: 'set' }));
  await h.client.send(
    new CreateConfigurationSetEventDestinationCommand({
      ConfigurationSetName: 'set',
      EventDestinationName: 'd',
      EventDestination: { Enabled: true, MatchingEventTypes: ['SEND', 'DELIVERY', 'BOUNCE'], SnsDestination: { TopicArn: h.topicArn } },
    }),
  );
});

afterAll(async () => {
  await h.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

const send = (to: string, set = 'set') =>
  h.client.send(
    new SendEmailCommand({
      FromEmailAddress: 'sender@example.com',
      Destination: { ToAddresses: [to] },
      Content: { Simple: { Subject: { Data: 'outbox' }, Body: { Text: { Data: 'hi' } } } },
      ConfigurationSetName: set,
    }),
  );

function metaOf(id: string): { outbox: { type: string; unpublished: string[] }[]; events: { type: string }[] } {
  return JSON.parse(readFileSync(path.join(dataDir, 'messages', `${id}.json`), 'utf8')) as never;
}

it('has the message, its raw bytes and its owed events on disk when SendEmail answers', async () => {
  // No stop, no flush: what the answer promises must already be there.
  const out = await send('bounce@simulator.amazonses.com');
  const id = out.MessageId!;
  expect(existsSync(path.join(dataDir, 'messages', `${id}.eml`))).toBe(true);
  const meta = metaOf(id);
  expect(meta.outbox.map((e) => e.type)).toEqual(['Send', 'Bounce']);
  expect((await h.eventsFor(id, 2)).map((e) => e.eventType)).toEqual(['Send', 'Bounce']);
});

it('has configuration sets on disk when their operations answer', async () => {
  await h.client.send(new CreateConfigurationSetCommand({ ConfigurationSetName: 'durable-set' }));
  const file = JSON.parse(readFileSync(path.join(dataDir, 'config-sets.json'), 'utf8')) as { configurationSets: { name: string }[] };
  expect(file.configurationSets.map((c) => c.name)).toContain('durable-set');
});

it('retries a failed publish until it succeeds (a topic that appears later)', async () => {
  const lateName = `late-topic-${process.pid}`;
  const lateArn = h.topicArn.replace(/[^:]+$/, lateName);
  await h.client.send(new CreateConfigurationSetCommand({ ConfigurationSetName: 'late' }));
  await h.client.send(
    new CreateConfigurationSetEventDestinationCommand({
      ConfigurationSetName: 'late',
      EventDestinationName: 'd',
      EventDestination: { Enabled: true, MatchingEventTypes: ['SEND', 'DELIVERY'], SnsDestination: { TopicArn: lateArn } },
    }),
  );
  const out = await send('success@simulator.amazonses.com', 'late');
  const deadline = Date.now() + 5000;
  while (!h.logs.some((l) => l.includes(`could not publish Send event of ${out.MessageId!}`)) && Date.now() < deadline) await sleep(10);
  expect(h.ses.owedEvents()).toBe(2);

  h.fx.createTopic(lateName);
  h.fx.subscribe({ topic: lateName, queue: 'events' });
  expect((await h.eventsFor(out.MessageId!, 2)).map((e) => e.eventType)).toEqual(['Send', 'Delivery']);
  expect(h.ses.owedEvents()).toBe(0);
  expect(metaOf(out.MessageId!).outbox.every((e) => e.unpublished.length === 0)).toBe(true);
});

it('keeps events owed while SNS is down across a stop and publishes them on the next start', async () => {
  await h.ses.stop();
  await h.startSes({ dataDir, outcomeDelayMs: 5, publishRetry: FAST_RETRY, sns: DEAD_SNS });
  const out = await send('success@simulator.amazonses.com');
  const id = out.MessageId!;
  const deadline = Date.now() + 5000;
  while (!h.logs.some((l) => l.includes(`could not publish Send event of ${id}`)) && Date.now() < deadline) await sleep(10);
  await h.ses.stop(); // does not wait for the retries; the outbox stays on disk
  expect(metaOf(id).outbox.map((e) => e.unpublished.length)).toEqual([1, 1]);

  await h.startSes({ dataDir, outcomeDelayMs: 5, publishRetry: FAST_RETRY });
  expect(h.logs.some((l) => /re-publishing 2 owed event\(s\) of 1 message/.test(l))).toBe(true);
  const events = await h.eventsFor(id, 2);
  expect(events.map((e) => e.eventType)).toEqual(['Send', 'Delivery']);
  // The Delivery carries the time planned when SES accepted the message, not the restart's.
  const planned = Date.parse(events[0]!.mail.timestamp as unknown as string) + 5;
  expect(Date.parse((events[1]!.delivery as { timestamp: string }).timestamp)).toBe(planned);
  expect(h.ses.owedEvents()).toBe(0);
});

it('on load, drops the .eml of a send killed before its .json, and reads older files as owing nothing', async () => {
  await h.ses.stop();
  const dir = path.join(dataDir, 'messages');
  writeFileSync(path.join(dir, 'orphan.eml'), 'From: a@example.com\r\n\r\nx');
  writeFileSync(
    path.join(dir, 'old.json'),
    JSON.stringify({
      id: 'old',
      seq: 0,
      received_at: new Date(0).toISOString(),
      from: 'a@example.com',
      to: ['b@example.com'],
      subject: 's',
      configuration_set: 'set',
      tags: {},
      events: [],
    }),
  );
  writeFileSync(path.join(dir, 'old.eml'), 'From: a@example.com\r\n\r\nold');
  await h.startSes({ dataDir, outcomeDelayMs: 5, publishRetry: FAST_RETRY });
  expect(readdirSync(dir)).not.toContain('orphan.eml');
  expect(h.ses.listMessages().some((m) => m.id === 'old')).toBe(true);
  expect(h.ses.owedEvents()).toBe(0);
});

describe('outbox (pure)', () => {
  const configSet: ConfigurationSet = {
    name: 'cs',
    createdAt: '',
    options: {},
    eventDestinations: [
      {
        Name: 'a',
        Enabled: true,
        MatchingEventTypes: ['SEND', 'BOUNCE'],
        SnsDestination: { TopicArn: 'arn:aws:sns:us-east-1:000000000000:a' },
      },
      {
        Name: 'b',
        Enabled: true,
        MatchingEventTypes: ['BOUNCE', 'COMPLAINT'],
        SnsDestination: { TopicArn: 'arn:aws:sns:us-east-1:000000000000:b' },
      },
      {
        Name: 'off',
        Enabled: false,
        MatchingEventTypes: ['DELIVERY'],
        SnsDestination: { TopicArn: 'arn:aws:sns:us-east-1:000000000000:off' },
      },
    ],
  };
  const recipients = ['x@example.com', 'bounce@simulator.amazonses.com', 'complaint@simulator.amazonses.com'];
  const accepted = new Date('2024-05-01T10:00:00.000Z');

  it('plans the matched events with their topics and due times; unmatched types are left out', () => {
    const outbox = planOutbox(configSet, recipients, accepted, 100);
    expect(outbox.map((e) => [e.type, e.topics.map((t) => t.slice(-1)), e.at])).toEqual([
      ['Send', ['a'], '2024-05-01T10:00:00.000Z'],
      ['Bounce', ['a', 'b'], '2024-05-01T10:00:00.100Z'],
      ['Complaint', ['b'], '2024-05-01T10:00:00.100Z'],
    ]);
    expect(outbox.every((e) => e.unpublished.length === e.topics.length)).toBe(true);
  });

  it("dates a delayed recipient's Delivery after its DeliveryDelay (SES delivers on a later retry); the others' at once", () => {
    const all: ConfigurationSet = {
      ...configSet,
      eventDestinations: [
        {
          Name: 'all',
          Enabled: true,
          MatchingEventTypes: ['DELIVERY', 'DELIVERY_DELAY'],
          SnsDestination: { TopicArn: 'arn:aws:sns:us-east-1:000000000000:all' },
        },
      ],
    };
    const outbox = planOutbox(all, ['delay+mailboxfull@simulator.ses.localhost', 'x@example.com'], accepted, 100);
    const at = (type: string, recipient: string) =>
      Date.parse(outbox.find((e) => e.type === type && e.recipients?.includes(recipient))!.at);
    const delayed = 'delay+mailboxfull@simulator.ses.localhost';
    expect(at('DeliveryDelay', delayed)).toBe(accepted.getTime() + 100);
    expect(at('Delivery', delayed)).toBe(at('DeliveryDelay', delayed) + DELIVERY_AFTER_DELAY_MS);
    expect(at('Delivery', 'x@example.com')).toBe(accepted.getTime() + 100);
    expect(DELIVERY_AFTER_DELAY_MS).toBeGreaterThanOrEqual(1000);
  });

  it('builds the same record from a stored entry every time (a re-publish is identical)', () => {
    const mail = buildMailObject({
      messageId: 'm1',
      timestamp: accepted.toISOString(),
      source: 's@example.com',
      sourceAddress: 's@example.com',
      region: 'us-east-1',
      accountId: '000000000000',
      destination: recipients,
      headers: [{ name: 'Subject', value: 'x' }],
      commonHeaders: { from: ['s@example.com'], messageId: 'm1' },
      configurationSet: 'cs',
      emailTags: {},
    });
    const outbox = planOutbox(configSet, recipients, accepted, 100);
    const restored = JSON.parse(JSON.stringify({ mail, outbox })) as { mail: typeof mail; outbox: typeof outbox };
    for (let i = 0; i < outbox.length; i++) {
      expect(JSON.stringify(eventRecord(restored.mail, restored.outbox[i]!))).toBe(JSON.stringify(eventRecord(mail, outbox[i]!)));
    }
    const bounce = eventRecord(mail, outbox[1]!) as { bounce: { feedbackId: string; timestamp: string } };
    expect(bounce.bounce.feedbackId).toBe(outbox[1]!.feedbackId);
    expect(bounce.bounce.timestamp).toBe('2024-05-01T10:00:00.100Z');
  });
});
