/**
 * What the local SES refuses in a message's bytes and what it changes in the bytes it delivers, as SES
 * does (docs/local-cloud/ses.md "Content rules", "Message-ID and Date", "Tracking", "DKIM signing"),
 * through the SDK against the running emulator.
 */
import { generateKeyPairSync } from 'node:crypto';
import { Resolver } from 'node:dns/promises';
import {
  CreateConfigurationSetCommand,
  CreateConfigurationSetEventDestinationCommand,
  CreateEmailIdentityCommand,
  GetEmailIdentityCommand,
  SendEmailCommand,
} from '@aws-sdk/client-sesv2';
import { simpleParser } from 'mailparser';
import { SES_REFUSED_EXTENSIONS, SES_SINGLE_HEADERS } from '#localstack/emulators/ses/content-rules';
import { rfc5322Date, sesMessageIdHeader } from '#localstack/emulators/ses/message-id';
import { verifyDkim } from '#test/support/mailauth-dkim';
import { Harness, rawMessage } from './harness';

let h: Harness;
beforeAll(async () => {
  // example.com is a verified sending domain (Easy DKIM: not signed locally): harness.ts.
  h = await Harness.start();
});
afterAll(async () => {
  await h.stop();
});

const send = (raw: Buffer, extra: Record<string, unknown> = {}) =>
  h.client.send(new SendEmailCommand({ Destination: { ToAddresses: ['bob@example.org'] }, Content: { Raw: { Data: raw } }, ...extra }));

const stored = (id: string): Buffer => Buffer.from(h.ses.listMessages().find((m) => m.id === id)!.raw_base64, 'base64');

/** A configuration set with one enabled SNS destination of these event types; returns its name. */
async function setWith(name: string, types: ('SEND' | 'OPEN' | 'CLICK' | 'DELIVERY')[]): Promise<string> {
  await h.client.send(new CreateConfigurationSetCommand({ ConfigurationSetName: name }));
  await h.client.send(
    new CreateConfigurationSetEventDestinationCommand({
      ConfigurationSetName: name,
      EventDestinationName: 'sns',
      EventDestination: { Enabled: true, MatchingEventTypes: types, SnsDestination: { TopicArn: h.topicArn } },
    }),
  );
  return name;
}

function withAttachment(filename: string): Buffer {
  return rawMessage([
    'From: ann@example.com',
    'To: bob@example.org',
    'Subject: file',
    'MIME-Version: 1.0',
    'Content-Type: multipart/mixed; boundary="b1"',
    '',
    '--b1',
    'Content-Type: text/plain',
    '',
    'see attached',
    '--b1',
    `Content-Type: application/octet-stream; name="${filename}"`,
    `Content-Disposition: attachment; filename="${filename}"`,
    'Content-Transfer-Encoding: base64',
    '',
    'aGVsbG8=',
    '--b1--',
    '',
  ]);
}

describe('content rules', () => {
  it('lists the 90 extensions and 60 single-occurrence headers of the AWS pages', () => {
    expect(SES_REFUSED_EXTENSIONS.size).toBe(90);
    expect(SES_SINGLE_HEADERS.size).toBe(60);
  });

  it('refuses a second occurrence of a single-occurrence header, whatever its case', async () => {
    const raw = rawMessage(['From: ann@example.com', 'To: bob@example.org', 'Subject: one', 'SUBJECT: two', '', 'x']);
    await expect(send(raw)).rejects.toMatchObject({ name: 'BadRequestException', message: "Duplicate header 'SUBJECT'." });
    const references = rawMessage(['From: ann@example.com', 'References: <a@x>', 'references: <b@x>', '', 'x']);
    await expect(send(references)).rejects.toMatchObject({ name: 'BadRequestException', message: "Duplicate header 'references'." });
  });

  it('accepts repeated fields SES does not list (Received, X-*)', async () => {
    const raw = rawMessage(['From: ann@example.com', 'X-Tag: 1', 'X-Tag: 2', 'Received: a', 'Received: b', 'Subject: s', '', 'x']);
    await expect(send(raw)).resolves.toMatchObject({ MessageId: expect.any(String) });
  });

  it('refuses an empty header name', async () => {
    const raw = rawMessage(['From: ann@example.com', ': nameless', 'Subject: s', '', 'x']);
    await expect(send(raw)).rejects.toMatchObject({ name: 'BadRequestException', message: 'Empty header names are illegal.' });
  });

  it.each(['cert.cer', 'installer.MSI', 'script.ps1', 'shortcut.lnk', 'link.url', 'scratch.tmp', 'run.exe'])(
    'refuses the attachment %s (MessageRejected)',
    async (filename) => {
      await expect(send(withAttachment(filename))).rejects.toMatchObject({
        name: 'MessageRejected',
        message: expect.stringContaining(filename),
      });
    },
  );

  it.each(['a:b.pdf', 'what?.pdf', 'x*y.pdf', 'a<b>.pdf', 'pipe|.pdf', 'quote".pdf'])(
    'refuses the file name %s (BadRequestException)',
    async (filename) => {
      const raw = withAttachment(filename.replace(/"/g, '\\"'));
      await expect(send(raw)).rejects.toMatchObject({ name: 'BadRequestException', message: expect.stringContaining('Illegal filename') });
    },
  );

  it('accepts other files, judged by the last extension (invoice.exe.pdf passes, as on SES)', async () => {
    for (const filename of ['invoice.pdf', 'invoice.exe.pdf', 'data.csv'])
      await expect(send(withAttachment(filename))).resolves.toBeDefined();
  });

  it('refuses an RFC 2231-encoded refused name, and Simple content attachments too', async () => {
    const raw = withAttachment('x')
      .toString('latin1')
      .replace(/filename="x"/, "filename*=UTF-8''caf%C3%A9.crt");
    await expect(send(Buffer.from(raw, 'latin1'))).rejects.toMatchObject({ name: 'MessageRejected' });
    await expect(
      h.client.send(
        new SendEmailCommand({
          FromEmailAddress: 'ann@example.com',
          Destination: { ToAddresses: ['bob@example.org'] },
          Content: {
            Simple: {
              Subject: { Data: 's' },
              Body: { Text: { Data: 't' } },
              Attachments: [{ FileName: 'key.der', RawContent: new Uint8Array([1, 2]) }],
            },
          },
        }),
      ),
    ).rejects.toMatchObject({ name: 'MessageRejected' });
  });
});

describe('Message-ID and Date', () => {
  it('replaces both in the delivered bytes and keeps the original Message-ID in the events', async () => {
    const set = await setWith('ids-set', ['SEND']);
    const raw = rawMessage([
      'Message-ID: <ours-1@example.com>',
      'From: ann@example.com',
      'Date: Mon, 01 Jan 2024 10:00:00 +0000',
      'To: success@simulator.amazonses.com',
      'Subject: ids',
      '',
      'body',
    ]);
    const before = Date.now();
    const out = await h.client.send(new SendEmailCommand({ Content: { Raw: { Data: raw } }, ConfigurationSetName: set }));
    const delivered = await simpleParser(stored(out.MessageId!));
    expect(delivered.messageId).toBe(`<${out.MessageId}@email.amazonses.com>`);
    expect(delivered.date!.getTime()).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
    expect(stored(out.MessageId!).toString('latin1')).not.toContain('ours-1@example.com');
    expect(stored(out.MessageId!).toString('latin1')).not.toContain('2024');

    const [sendEvent] = await h.eventsFor(out.MessageId!, 1);
    expect(sendEvent!.mail.messageId).toBe(out.MessageId);
    expect(sendEvent!.mail.commonHeaders).toMatchObject({ messageId: '<ours-1@example.com>', date: 'Mon, 01 Jan 2024 10:00:00 +0000' });
    expect(sendEvent!.mail.headers).toEqual(expect.arrayContaining([{ name: 'Message-ID', value: '<ours-1@example.com>' }]));
  });

  it('names the region outside us-east-1 and writes RFC 5322 dates', () => {
    expect(sesMessageIdHeader('0100-x-000000', 'us-east-1')).toBe('<0100-x-000000@email.amazonses.com>');
    expect(sesMessageIdHeader('0102-x-000000', 'eu-west-1')).toBe('<0102-x-000000@eu-west-1.amazonses.com>');
    expect(rfc5322Date(new Date('2026-11-24T09:05:03Z'))).toBe('Tue, 24 Nov 2026 09:05:03 +0000');
  });
});

describe('open and click tracking', () => {
  const html = (encoding: 'quoted-printable' | 'base64' | '7bit') => {
    const content =
      '<html><body><p>Hi</p><a href="https://example.com/a?x=1&amp;y=2">a</a> <a ses:no-track href="https://example.com/keep">k</a></body></html>';
    const body =
      encoding === 'base64'
        ? Buffer.from(content).toString('base64')
        : encoding === 'quoted-printable'
          ? content.replace(/=/g, '=3D')
          : content;
    return rawMessage([
      'From: ann@example.com',
      'To: bob@example.org',
      'Subject: tracked',
      'MIME-Version: 1.0',
      'Content-Type: multipart/alternative; boundary="alt"',
      '',
      '--alt',
      'Content-Type: text/plain; charset=utf-8',
      '',
      'Plain https://example.com/a',
      '--alt',
      'Content-Type: text/html; charset=utf-8',
      `Content-Transfer-Encoding: ${encoding}`,
      '',
      body,
      '--alt--',
      '',
    ]);
  };

  it.each(['quote-printable', 'base64', '7bit'] as const)(
    'adds the pixel and rewrites links of HTML parts (%s) when the set subscribes OPEN and CLICK',
    async (kind) => {
      const set = await setWith(`track-${kind}`, ['OPEN', 'CLICK']);
      const out = await send(html(kind === 'quote-printable' ? 'quoted-printable' : kind), { ConfigurationSetName: set });
      const parsed = await simpleParser(stored(out.MessageId!));
      expect(parsed.html).toContain(`<img alt="" src="https://local.r.us-east-1.awstrack.me/I0/${out.MessageId}/open"`);
      expect(parsed.html).toContain(
        `href="https://local.r.us-east-1.awstrack.me/L0/${encodeURIComponent('https://example.com/a?x=1&y=2')}/1/${out.MessageId}/1"`,
      );
      expect(parsed.html).toContain('href="https://example.com/keep"');
      expect(parsed.text?.trim()).toBe('Plain https://example.com/a');
    },
  );

  it('only rewrites links for CLICK, only adds the pixel for OPEN, and changes nothing without either', async () => {
    const click = await send(html('7bit'), { ConfigurationSetName: await setWith('click-only', ['CLICK']) });
    const clickHtml = (await simpleParser(stored(click.MessageId!))).html as string;
    expect(clickHtml).toContain('/L0/');
    expect(clickHtml).not.toContain('/I0/');
    const open = await send(html('7bit'), { ConfigurationSetName: await setWith('open-only', ['OPEN']) });
    const openHtml = (await simpleParser(stored(open.MessageId!))).html as string;
    expect(openHtml).toContain('/I0/');
    expect(openHtml).not.toContain('/L0/');
    const none = await send(html('7bit'), { ConfigurationSetName: await setWith('delivery-only', ['DELIVERY']) });
    expect(stored(none.MessageId!).toString('latin1')).not.toContain('awstrack.me');
    const noSet = await send(html('7bit'));
    expect(stored(noSet.MessageId!).toString('latin1')).not.toContain('awstrack.me');
  });
});

describe('BYODKIM signing', () => {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 1024 });
  const der = privateKey.export({ type: 'pkcs1', format: 'der' }).toString('base64');
  const p = publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
  const resolver = new Resolver();
  const resolveTxt = (name: string): Promise<string[][]> => resolver.resolveTxt(name);

  beforeAll(async () => {
    resolver.setServers([h.dns.address]);
    // The identity is verified once DNS shows its key, as SES checks it.
    h.dns.setRecords({ name: 'sel1._domainkey.signed.example', type: 'TXT', values: [`v=DKIM1; k=rsa; p=${p}`] });
    await h.client.send(
      new CreateEmailIdentityCommand({
        EmailIdentity: 'signed.example',
        DkimSigningAttributes: { DomainSigningSelector: 'sel1', DomainSigningPrivateKey: der },
      }),
    );
    expect((await h.client.send(new GetEmailIdentityCommand({ EmailIdentity: 'signed.example' }))).VerifiedForSendingStatus).toBe(true);
  });

  it("signs the delivered bytes (after SES's own changes) with the identity's key and selector; a subdomain inherits it", async () => {
    const set = await setWith('dkim-tracked', ['OPEN', 'CLICK']);
    for (const from of ['news@signed.example', 'news@mail.signed.example']) {
      const raw = rawMessage([
        `From: ${from}`,
        'To: bob@example.org',
        'Subject: signed',
        'Content-Type: text/html',
        '',
        '<a href="https://example.com/">x</a>',
      ]);
      const out = await send(raw, { ConfigurationSetName: set });
      const bytes = stored(out.MessageId!);
      expect(bytes.toString('latin1')).toMatch(/^DKIM-Signature: [\s\S]*d=signed\.example;[\s\S]*s=sel1;/);
      expect(bytes.toString('latin1')).toContain('awstrack.me');
      const results = await verifyDkim(bytes, resolveTxt);
      expect(results).toEqual([expect.objectContaining({ status: 'pass', domain: 'signed.example', selector: 'sel1' })]);
    }
  });

  it('leaves mail from domains without a BYODKIM key unsigned (example.com: Easy DKIM)', async () => {
    const out = await send(rawMessage(['From: ann@example.com', 'Subject: s', '', 'x']));
    expect(stored(out.MessageId!).toString('latin1')).not.toContain('DKIM-Signature');
  });

  it('never returns the private key (GetEmailIdentity, the viewer)', async () => {
    const body = JSON.stringify(await h.client.send(new GetEmailIdentityCommand({ EmailIdentity: 'signed.example' })));
    const pemBody = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString().split('\n')[1]!;
    for (const text of [body, JSON.stringify(h.ses.listIdentities())]) {
      expect(text).not.toContain(der.slice(0, 40));
      expect(text).not.toContain(pemBody);
      expect(text).not.toContain('PRIVATE KEY');
    }
  });
});
