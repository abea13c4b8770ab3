import {
  CreateConfigurationSetCommand,
  CreateConfigurationSetEventDestinationCommand,
  DeleteConfigurationSetCommand,
  DeleteConfigurationSetEventDestinationCommand,
  GetConfigurationSetCommand,
  GetConfigurationSetEventDestinationsCommand,
  ListConfigurationSetsCommand,
  SendEmailCommand,
  UpdateConfigurationSetEventDestinationCommand,
} from '@aws-sdk/client-sesv2';
import * as http from 'node:http';
import { Harness, rawMessage } from './harness';
import { withoutSesDateAndMessageId } from './ses-fields';

const SET = 'mailservice-outbound';

let h: Harness;

beforeAll(async () => {
  h = await Harness.start({ outcomeDelayMs: 10 });
  await h.client.send(new CreateConfigurationSetCommand({ ConfigurationSetName: SET }));
  await h.client.send(
    new CreateConfigurationSetEventDestinationCommand({
      ConfigurationSetName: SET,
      EventDestinationName: 'to-sns',
      EventDestination: {
        Enabled: true,
        MatchingEventTypes: ['SEND', 'DELIVERY', 'BOUNCE', 'COMPLAINT', 'DELIVERY_DELAY', 'REJECT', 'OPEN', 'CLICK'],
        SnsDestination: { TopicArn: h.topicArn },
      },
    }),
  );
});

afterAll(async () => {
  await h.stop();
});

function simpleSend(to: string, extra: Partial<ConstructorParameters<typeof SendEmailCommand>[0]> = {}) {
  return h.client.send(
    new SendEmailCommand({
      FromEmailAddress: 'Sender <sender@example.com>',
      Destination: { ToAddresses: [to] },
      Content: { Simple: { Subject: { Data: `hello ${to}` }, Body: { Text: { Data: 'hi' } } } },
      ConfigurationSetName: SET,
      ...extra,
    }),
  );
}

describe('configuration sets', () => {
  it('creates, reads and lists configuration sets and event destinations', async () => {
    const got = await h.client.send(new GetConfigurationSetCommand({ ConfigurationSetName: SET }));
    expect(got.ConfigurationSetName).toBe(SET);
    expect(got.SendingOptions?.SendingEnabled).toBe(true);

    const list = await h.client.send(new ListConfigurationSetsCommand({}));
    expect(list.ConfigurationSets).toContain(SET);

    const dests = await h.client.send(new GetConfigurationSetEventDestinationsCommand({ ConfigurationSetName: SET }));
    expect(dests.EventDestinations).toEqual([
      expect.objectContaining({
        Name: 'to-sns',
        Enabled: true,
        MatchingEventTypes: expect.arrayContaining(['SEND', 'DELIVERY', 'BOUNCE', 'COMPLAINT']),
        SnsDestination: { TopicArn: h.topicArn },
      }),
    ]);
  });

  it('answers AlreadyExistsException for duplicates', async () => {
    await expect(h.client.send(new CreateConfigurationSetCommand({ ConfigurationSetName: SET }))).rejects.toMatchObject({
      name: 'AlreadyExistsException',
      $metadata: { httpStatusCode: 400 },
    });
    await expect(
      h.client.send(
        new CreateConfigurationSetEventDestinationCommand({
          ConfigurationSetName: SET,
          EventDestinationName: 'to-sns',
          EventDestination: { Enabled: true, MatchingEventTypes: ['SEND'], SnsDestination: { TopicArn: h.topicArn } },
        }),
      ),
    ).rejects.toMatchObject({ name: 'AlreadyExistsException' });
  });

  it('answers NotFoundException for unknown sets and destinations', async () => {
    await expect(h.client.send(new GetConfigurationSetCommand({ ConfigurationSetName: 'nope' }))).rejects.toMatchObject({
      name: 'NotFoundException',
      message: expect.stringContaining('nope'),
      $metadata: { httpStatusCode: 404 },
    });
    await expect(h.client.send(new DeleteConfigurationSetCommand({ ConfigurationSetName: 'nope' }))).rejects.toMatchObject({
      name: 'NotFoundException',
    });
    await expect(
      h.client.send(
        new CreateConfigurationSetEventDestinationCommand({
          ConfigurationSetName: 'nope',
          EventDestinationName: 'x',
          EventDestination: { Enabled: true, MatchingEventTypes: ['SEND'], SnsDestination: { TopicArn: h.topicArn } },
        }),
      ),
    ).rejects.toMatchObject({ name: 'NotFoundException' });
    await expect(
      h.client.send(new DeleteConfigurationSetEventDestinationCommand({ ConfigurationSetName: SET, EventDestinationName: 'missing' })),
    ).rejects.toMatchObject({ name: 'NotFoundException' });
    await expect(simpleSend('success@simulator.amazonses.com', { ConfigurationSetName: 'nope' })).rejects.toMatchObject({
      name: 'NotFoundException',
    });
  });

  it('answers BadRequestException for invalid input', async () => {
    await expect(h.client.send(new CreateConfigurationSetCommand({ ConfigurationSetName: 'bad name!' }))).rejects.toMatchObject({
      name: 'BadRequestException',
    });
    await expect(
      h.client.send(
        new CreateConfigurationSetEventDestinationCommand({
          ConfigurationSetName: SET,
          EventDestinationName: 'no-types',
          EventDestination: { Enabled: true, MatchingEventTypes: [], SnsDestination: { TopicArn: h.topicArn } },
        }),
      ),
    ).rejects.toMatchObject({ name: 'BadRequestException' });
    await expect(
      h.client.send(
        new SendEmailCommand({
          FromEmailAddress: 'sender@example.com',
          Destination: { ToAddresses: ['a@example.com'] },
          Content: { Template: { TemplateName: 'welcome', TemplateData: '{}' } },
        }),
      ),
    ).rejects.toMatchObject({ name: 'BadRequestException', message: expect.stringContaining('Template') });
    await expect(simpleSend('a@example.com', { EmailTags: [{ Name: 'bad tag', Value: 'x' }] })).rejects.toMatchObject({
      name: 'BadRequestException',
    });
  });

  it('updates, deletes and re-creates event destinations, and deletes sets', async () => {
    const name = 'scratch-set';
    await h.client.send(new CreateConfigurationSetCommand({ ConfigurationSetName: name, SendingOptions: { SendingEnabled: false } }));
    await h.client.send(
      new CreateConfigurationSetEventDestinationCommand({
        ConfigurationSetName: name,
        EventDestinationName: 'd',
        EventDestination: { MatchingEventTypes: ['SEND'], SnsDestination: { TopicArn: h.topicArn } },
      }),
    );
    let dests = await h.client.send(new GetConfigurationSetEventDestinationsCommand({ ConfigurationSetName: name }));
    expect(dests.EventDestinations?.[0]?.Enabled).toBe(false);

    await h.client.send(
      new UpdateConfigurationSetEventDestinationCommand({
        ConfigurationSetName: name,
        EventDestinationName: 'd',
        EventDestination: { Enabled: true, MatchingEventTypes: ['SEND', 'BOUNCE'] },
      }),
    );
    dests = await h.client.send(new GetConfigurationSetEventDestinationsCommand({ ConfigurationSetName: name }));
    expect(dests.EventDestinations?.[0]).toMatchObject({
      Enabled: true,
      MatchingEventTypes: ['SEND', 'BOUNCE'],
      SnsDestination: { TopicArn: h.topicArn },
    });

    await expect(simpleSend('a@example.com', { ConfigurationSetName: name })).rejects.toMatchObject({ name: 'SendingPausedException' });

    await h.client.send(new DeleteConfigurationSetEventDestinationCommand({ ConfigurationSetName: name, EventDestinationName: 'd' }));
    dests = await h.client.send(new GetConfigurationSetEventDestinationsCommand({ ConfigurationSetName: name }));
    expect(dests.EventDestinations).toEqual([]);
    await h.client.send(new DeleteConfigurationSetCommand({ ConfigurationSetName: name }));
    const list = await h.client.send(new ListConfigurationSetsCommand({}));
    expect(list.ConfigurationSets).not.toContain(name);
  });

  it('paginates ListConfigurationSets', async () => {
    for (const n of ['page-a', 'page-b', 'page-c']) await h.client.send(new CreateConfigurationSetCommand({ ConfigurationSetName: n }));
    const seen: string[] = [];
    let token: string | undefined;
    do {
      const page = await h.client.send(new ListConfigurationSetsCommand({ PageSize: 2, NextToken: token }));
      expect((page.ConfigurationSets ?? []).length).toBeLessThanOrEqual(2);
      seen.push(...(page.ConfigurationSets ?? []));
      token = page.NextToken;
    } while (token);
    expect(seen).toEqual(expect.arrayContaining(['page-a', 'page-b', 'page-c', SET]));
    for (const n of ['page-a', 'page-b', 'page-c']) await h.client.send(new DeleteConfigurationSetCommand({ ConfigurationSetName: n }));
  });
});

describe('SendEmail with raw content', () => {
  it('keeps the raw MIME byte for byte, custom headers included, and uses Destination as the envelope', async () => {
    const raw = rawMessage([
      'From: "Ann Example" <ann@example.com>',
      'To: Bob <bob@example.com>',
      'Subject: =?UTF-8?Q?Caf=C3=A9_menu?=',
      'X-Custom: keep-me',
      'List-Unsubscribe: <https://example.com/unsub?u=1>, <mailto:unsub@example.com>',
      'List-Unsubscribe-Post: List-Unsubscribe=One-Click',
      'X-Folded: first part',
      '\tsecond part',
      'MIME-Version: 1.0',
      'Content-Type: text/plain; charset=utf-8',
      'Content-Transfer-Encoding: 8bit',
      '',
      'Bonjour, café ☕',
      'trailing spaces   ',
      '',
    ]);
    const out = await h.client.send(
      new SendEmailCommand({
        FromEmailAddress: 'ann@example.com',
        Destination: { ToAddresses: ['bob@example.com'], BccAddresses: ['hidden@example.com'] },
        Content: { Raw: { Data: new Uint8Array(raw) } },
      }),
    );
    expect(out.MessageId).toMatch(/^01[0-9a-f]{14}-[0-9a-f-]{36}-000000$/);

    const stored = h.ses.listMessages().find((m) => m.id === out.MessageId);
    expect(stored).toBeDefined();
    // Byte for byte but for SES's own Date and Message-ID, put first (content-and-delivered-bytes.test.ts).
    expect(withoutSesDateAndMessageId(stored!.raw_base64).equals(raw)).toBe(true);
    expect(stored!.raw).toContain('X-Custom: keep-me');
    expect(stored!.raw).toContain('List-Unsubscribe: <https://example.com/unsub?u=1>');
    expect(stored!.to).toEqual(['bob@example.com', 'hidden@example.com']);
    expect(stored!.from).toBe('ann@example.com');
    expect(stored!.subject).toBe('Café menu');
    expect(stored!.configuration_set).toBeNull();
  });

  it('takes envelope recipients and sender from the headers when no Destination/FromEmailAddress is given', async () => {
    const raw = rawMessage([
      'From: Ann <ann@example.com>',
      'To: one@example.com, "Two, Esq." <two@example.com>',
      'Cc: three@example.com',
      'Bcc: four@example.com',
      'Subject: headers only',
      '',
      'body',
    ]);
    const out = await h.client.send(new SendEmailCommand({ Content: { Raw: { Data: raw } } }));
    const stored = h.ses.listMessages().find((m) => m.id === out.MessageId)!;
    expect(stored.to).toEqual(['one@example.com', 'two@example.com', 'three@example.com', 'four@example.com']);
    expect(stored.from).toBe('Ann <ann@example.com>');
    expect(withoutSesDateAndMessageId(stored.raw_base64).equals(raw)).toBe(true);
  });

  it('rejects a message without recipients', async () => {
    const raw = rawMessage(['From: ann@example.com', 'Subject: nobody', '', 'x']);
    await expect(h.client.send(new SendEmailCommand({ Content: { Raw: { Data: raw } } }))).rejects.toMatchObject({
      name: 'BadRequestException',
    });
  });
});

describe('event publishing (mailbox simulator)', () => {
  it('success@ gives Send then Delivery, with EmailTags in mail.tags', async () => {
    const raw = rawMessage([
      'From: Sender <sender@example.com>',
      'To: success+label@simulator.amazonses.com',
      'Subject: Tagged',
      'Date: Mon, 01 Jan 2024 10:00:00 +0000',
      'X-Custom: 1',
      '',
      'hi',
    ]);
    const out = await h.client.send(
      new SendEmailCommand({
        Content: { Raw: { Data: raw } },
        ConfigurationSetName: SET,
        EmailTags: [
          { Name: 'tenant_id', Value: 't-123' },
          { Name: 'email_id', Value: 'e_456' },
        ],
      }),
    );
    const events = await h.eventsFor(out.MessageId!, 2);
    expect(events.map((e) => e.eventType)).toEqual(['Send', 'Delivery']);
    const [send, delivery] = events;
    expect(send!.send).toEqual({});
    expect(send!.mail).toMatchObject({
      messageId: out.MessageId,
      source: 'Sender <sender@example.com>',
      sendingAccountId: '000000000000',
      destination: ['success+label@simulator.amazonses.com'],
      headersTruncated: false,
      commonHeaders: {
        from: ['Sender <sender@example.com>'],
        to: ['success+label@simulator.amazonses.com'],
        subject: 'Tagged',
        date: 'Mon, 01 Jan 2024 10:00:00 +0000',
        messageId: out.MessageId,
      },
      tags: {
        'ses:configuration-set': [SET],
        'ses:from-domain': ['example.com'],
        'ses:caller-identity': ['local'],
        'ses:source-ip': ['127.0.0.1'],
        tenant_id: ['t-123'],
        email_id: ['e_456'],
      },
    });
    expect(send!.mail.headers).toEqual(expect.arrayContaining([{ name: 'X-Custom', value: '1' }]));
    expect(delivery!.delivery).toMatchObject({
      recipients: ['success+label@simulator.amazonses.com'],
      smtpResponse: expect.stringMatching(/^250/),
    });
    expect(delivery!.mail).toEqual(send!.mail);

    // The stored message records what was published.
    const stored = h.ses.listMessages().find((m) => m.id === out.MessageId)!;
    expect(stored.events.map((e) => e.type)).toEqual(['Send', 'Delivery']);
    expect(stored.tags).toEqual({ tenant_id: 't-123', email_id: 'e_456' });
    expect(stored.configuration_set).toBe(SET);
  });

  it('bounce@ gives Send then a permanent Bounce', async () => {
    const out = await simpleSend('bounce@simulator.amazonses.com');
    const events = await h.eventsFor(out.MessageId!, 2);
    expect(events.map((e) => e.eventType)).toEqual(['Send', 'Bounce']);
    expect(events[1]!.bounce).toMatchObject({
      bounceType: 'Permanent',
      bounceSubType: 'General',
      bouncedRecipients: [
        {
          emailAddress: 'bounce@simulator.amazonses.com',
          action: 'failed',
          status: '5.1.1',
          diagnosticCode: 'smtp; 550 5.1.1 user unknown',
        },
      ],
      feedbackId: expect.stringMatching(/-000000$/),
    });
  });

  it('complaint@ gives Send, Delivery, then Complaint', async () => {
    const out = await simpleSend('complaint@simulator.amazonses.com');
    const events = await h.eventsFor(out.MessageId!, 3);
    expect(events.map((e) => e.eventType)).toEqual(['Send', 'Delivery', 'Complaint']);
    expect(events[2]!.complaint).toMatchObject({
      complaintFeedbackType: 'abuse',
      complainedRecipients: [{ emailAddress: 'complaint@simulator.amazonses.com' }],
    });
  });

  it('an ordinary address gets a Delivery', async () => {
    const out = await simpleSend('someone@example.org');
    const events = await h.eventsFor(out.MessageId!, 2);
    expect(events.map((e) => e.eventType)).toEqual(['Send', 'Delivery']);
    expect(events[1]!.delivery).toMatchObject({ recipients: ['someone@example.org'] });
  });

  it('groups recipients per outcome within one message', async () => {
    const out = await h.client.send(
      new SendEmailCommand({
        FromEmailAddress: 'sender@example.com',
        Destination: {
          ToAddresses: ['a@example.com', 'bounce@simulator.amazonses.com'],
          CcAddresses: ['complaint@simulator.amazonses.com'],
          BccAddresses: ['bounce+2@simulator.amazonses.com'],
        },
        Content: { Simple: { Subject: { Data: 'mixed' }, Body: { Html: { Data: '<p>hi</p>' } } } },
        ConfigurationSetName: SET,
      }),
    );
    const events = await h.eventsFor(out.MessageId!, 5);
    // One Delivery per recipient (SES may publish one per recipient), one Bounce for both bounces.
    expect(events.map((e) => e.eventType)).toEqual(['Send', 'Delivery', 'Delivery', 'Bounce', 'Complaint']);
    expect(events[0]!.mail.destination).toEqual([
      'a@example.com',
      'bounce@simulator.amazonses.com',
      'complaint@simulator.amazonses.com',
      'bounce+2@simulator.amazonses.com',
    ]);
    expect(events.slice(1, 3).map((e) => (e.delivery as { recipients: string[] }).recipients)).toEqual([
      ['a@example.com'],
      ['complaint@simulator.amazonses.com'],
    ]);
    expect((events[3]!.bounce as { bouncedRecipients: { emailAddress: string }[] }).bouncedRecipients.map((r) => r.emailAddress)).toEqual([
      'bounce@simulator.amazonses.com',
      'bounce+2@simulator.amazonses.com',
    ]);
  });

  it('publishes nothing without a configuration set, or for event types not matched', async () => {
    const none = await simpleSend('success@simulator.amazonses.com', { ConfigurationSetName: undefined });

    await h.client.send(new CreateConfigurationSetCommand({ ConfigurationSetName: 'send-only' }));
    await h.client.send(
      new CreateConfigurationSetEventDestinationCommand({
        ConfigurationSetName: 'send-only',
        EventDestinationName: 'd',
        EventDestination: { Enabled: true, MatchingEventTypes: ['SEND'], SnsDestination: { TopicArn: h.topicArn } },
      }),
    );
    const sendOnly = await simpleSend('bounce@simulator.amazonses.com', { ConfigurationSetName: 'send-only' });
    // A later message whose events prove the queue has caught up.
    const marker = await simpleSend('success@simulator.amazonses.com');
    await h.eventsFor(marker.MessageId!, 2);

    expect(await h.eventsFor(none.MessageId!, 1, 100)).toEqual([]);
    expect((await h.eventsFor(sendOnly.MessageId!, 2, 300)).map((e) => e.eventType)).toEqual(['Send']);
    expect(h.ses.listMessages().find((m) => m.id === none.MessageId)!.events).toEqual([]);
  });

  it('logs a failed publish and keeps serving', async () => {
    await h.client.send(new CreateConfigurationSetCommand({ ConfigurationSetName: 'dead-topic' }));
    await h.client.send(
      new CreateConfigurationSetEventDestinationCommand({
        ConfigurationSetName: 'dead-topic',
        EventDestinationName: 'd',
        EventDestination: {
          Enabled: true,
          MatchingEventTypes: ['SEND', 'DELIVERY'],
          SnsDestination: { TopicArn: 'arn:aws:sns:us-east-1:000000000000:does-not-exist' },
        },
      }),
    );
    const out = await simpleSend('success@simulator.amazonses.com', { ConfigurationSetName: 'dead-topic' });
    const deadline = Date.now() + 5000;
    while (!h.logs.some((l) => l.includes(out.MessageId!)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(h.logs.some((l) => l.includes(`could not publish Send event of ${out.MessageId!}`))).toBe(true);
    const ok = await simpleSend('success@simulator.amazonses.com');
    expect(ok.MessageId).toBeDefined();
  });
});

describe('SendEmail with simple content', () => {
  it('composes MIME with subject, bodies, custom headers and attachments; Bcc stays out of the headers', async () => {
    const out = await h.client.send(
      new SendEmailCommand({
        FromEmailAddress: 'Ann <ann@example.com>',
        Destination: { ToAddresses: ['to@example.com'], CcAddresses: ['cc@example.com'], BccAddresses: ['bcc@example.com'] },
        ReplyToAddresses: ['reply@example.com'],
        Content: {
          Simple: {
            Subject: { Data: 'Grüße' },
            Body: { Text: { Data: 'plain' }, Html: { Data: '<b>html</b>' } },
            Headers: [{ Name: 'X-Simple', Value: 'yes' }],
            Attachments: [{ FileName: 'a.txt', RawContent: Buffer.from('attached'), ContentType: 'text/plain' }],
          },
        },
      }),
    );
    const m = h.ses.listMessages().find((x) => x.id === out.MessageId)!;
    expect(m.subject).toBe('Grüße');
    expect(m.to).toEqual(['to@example.com', 'cc@example.com', 'bcc@example.com']);
    expect(m.raw).toContain('X-Simple: yes');
    expect(m.raw).toContain('Reply-To: reply@example.com');
    // The composer folds the long header; SES ids contain no regex metacharacters.
    expect(m.raw).toMatch(new RegExp(`Message-ID:\\s+<${out.MessageId!}@email\\.amazonses\\.com>`));
    expect(m.raw).toContain('a.txt');
    expect(m.raw).not.toMatch(/^Bcc:/im);
  });
});

describe('wire robustness and viewer', () => {
  function rawRequest(
    method: string,
    path: string,
    body?: string,
  ): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
    const url = new URL(path, h.ses.url);
    return new Promise((resolve, reject) => {
      const req = http.request(
        url,
        { method, headers: body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}, timeout: 2000 },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
        },
      );
      req.on('timeout', () => req.destroy(new Error('timed out')));
      req.on('error', reject);
      req.end(body);
    });
  }

  it('answers unknown routes and operations promptly with an error', async () => {
    const started = Date.now();
    const unknown = await rawRequest('GET', '/v2/email/dedicated-ip-pools');
    expect(unknown.status).toBe(404);
    expect(unknown.headers['x-amzn-errortype']).toBe('UnknownOperationException');
    const other = await rawRequest('PATCH', '/something/else');
    expect(other.status).toBe(404);
    const v1 = await rawRequest('POST', '/', 'Action=SendRawEmail&Version=2010-12-01');
    expect(v1.status).toBe(400);
    expect(v1.body).toContain('<Code>InvalidAction</Code>');
    const badJson = await rawRequest('POST', '/v2/email/outbound-emails', '{not json');
    expect(badJson.status).toBe(400);
    const missing = await rawRequest('GET', '/v2/email/configuration-sets/missing-set');
    expect(missing.status).toBe(404);
    expect(missing.headers['x-amzn-errortype']).toBe('NotFoundException');
    expect(JSON.parse(missing.body)).toMatchObject({ message: expect.stringContaining('missing-set') });
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('also answers the older GET form of ListConfigurationSets', async () => {
    const res = await rawRequest('GET', '/v2/email/configuration-sets?PageSize=50');
    expect(res.status).toBe(200);
    expect((JSON.parse(res.body) as { ConfigurationSets: string[] }).ConfigurationSets).toContain(SET);
  });

  it('serves the messages as JSON and the mailbox page, escaping HTML', async () => {
    const out = await simpleSend('viewer@example.com', {
      Content: { Simple: { Subject: { Data: '<script>alert("x")</script> & co' }, Body: { Text: { Data: 'x' } } } },
    });
    const html = h.ses.mailboxHtml();
    expect(html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; co');
    expect(html).not.toContain('<script>');
    expect(html).toContain('<details>');

    const list = h.ses.listMessages();
    expect(list[0]!.id).toBe(out.MessageId);
    const json = await rawRequest('GET', '/_local/messages');
    expect(json.status).toBe(200);
    const parsed = JSON.parse(json.body) as { messages: { id: string }[] };
    expect(parsed.messages[0]!.id).toBe(out.MessageId);
    const page = await rawRequest('GET', '/_local/mailbox');
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).not.toContain('<script>');
    const raw = await rawRequest('GET', `/_local/messages/${out.MessageId!}/raw`);
    expect(raw.status).toBe(200);
    expect(raw.headers['content-type']).toBe('message/rfc822');
  });
});
