import {
  CreateConfigurationSetCommand,
  CreateConfigurationSetEventDestinationCommand,
  GetConfigurationSetEventDestinationsCommand,
  ListConfigurationSetsCommand,
  SendEmailCommand,
} from '@aws-sdk/client-sesv2';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { Harness, rawMessage } from './harness';
import { withoutSesDateAndMessageId } from './ses-fields';

let h: Harness;
let dataDir: string;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'ses-emulator-'));
  h = await Harness.start({ dataDir, outcomeDelayMs: 5 });
});

afterAll(async () => {
  await h.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

it('keeps messages (raw bytes and events) and configuration sets across a restart', async () => {
  await h.client.send(new CreateConfigurationSetCommand({ ConfigurationSetName: 'persisted' }));
  await h.client.send(
    new CreateConfigurationSetEventDestinationCommand({
      ConfigurationSetName: 'persisted',
      EventDestinationName: 'to-sns',
      EventDestination: { Enabled: true, MatchingEventTypes: ['SEND', 'DELIVERY'], SnsDestination: { TopicArn: h.topicArn } },
    }),
  );
  const raw = rawMessage(['From: a@example.com', 'To: success@simulator.amazonses.com', 'Subject: kept', 'X-Keep: 1', '', 'body']);
  const first = await h.client.send(
    new SendEmailCommand({ Content: { Raw: { Data: raw } }, ConfigurationSetName: 'persisted', EmailTags: [{ Name: 'k', Value: 'v' }] }),
  );
  const second = await h.client.send(
    new SendEmailCommand({
      Content: { Raw: { Data: rawMessage(['From: a@example.com', 'To: b@example.com', 'Subject: second', '', 'x']) } },
    }),
  );
  await h.eventsFor(first.MessageId!, 2);

  // stop() waits for the pipelines and flushes to disk.
  await h.ses.stop();
  const files = readdirSync(path.join(dataDir, 'messages')).sort();
  expect(files).toEqual(
    [`${first.MessageId!}.eml`, `${first.MessageId!}.json`, `${second.MessageId!}.eml`, `${second.MessageId!}.json`].sort(),
  );
  expect(readdirSync(dataDir)).toContain('config-sets.json');

  await h.startSes({ dataDir });
  const messages = h.ses.listMessages();
  expect(messages.map((m) => m.id)).toEqual([second.MessageId, first.MessageId]);
  const restored = messages[1]!;
  expect(withoutSesDateAndMessageId(restored.raw_base64).equals(raw)).toBe(true);
  expect(restored).toMatchObject({
    subject: 'kept',
    from: 'a@example.com',
    to: ['success@simulator.amazonses.com'],
    configuration_set: 'persisted',
    tags: { k: 'v' },
  });
  expect(restored.events.map((e) => e.type)).toEqual(['Send', 'Delivery']);

  const sets = await h.client.send(new ListConfigurationSetsCommand({}));
  expect(sets.ConfigurationSets).toEqual(['persisted']);
  const dests = await h.client.send(new GetConfigurationSetEventDestinationsCommand({ ConfigurationSetName: 'persisted' }));
  expect(dests.EventDestinations?.[0]).toMatchObject({ Name: 'to-sns', Enabled: true, SnsDestination: { TopicArn: h.topicArn } });

  // New messages after the restart sort first and keep publishing.
  const third = await h.client.send(
    new SendEmailCommand({
      Content: { Raw: { Data: rawMessage(['From: a@example.com', 'To: c@example.com', 'Subject: third', '', 'x']) } },
      ConfigurationSetName: 'persisted',
    }),
  );
  expect(h.ses.listMessages()[0]!.id).toBe(third.MessageId);
  expect((await h.eventsFor(third.MessageId!, 2)).map((e) => e.eventType)).toEqual(['Send', 'Delivery']);
});

it('rejects a relative dataDir', async () => {
  const { startSesEmulator } = await import('#localstack/emulators/ses');
  await expect(
    startSesEmulator({
      dataDir: 'relative/dir',
      sns: { endpoint: h.fx.address, region: 'us-east-1', credentials: { accessKeyId: 'x', secretAccessKey: 'x' } },
    }),
  ).rejects.toThrow(/absolute/);
});
