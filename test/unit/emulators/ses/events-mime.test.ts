import {
  buildBounceEvent,
  buildComplaintEvent,
  buildDeliveryEvent,
  buildMailObject,
  buildSendEvent,
  type MailObjectInput,
} from '#localstack/emulators/ses/events';
import { escapeHtml } from '#localstack/emulators/ses/html-escape';
import { renderMailboxHtml } from '#localstack/emulators/ses/mailbox-html';
import { decodeHeaders, formatMailbox, parseAddressList, parseHeaderFields } from '#localstack/emulators/ses/mime';

const input: MailObjectInput = {
  messageId: '0100018f00000000-11111111-2222-3333-4444-555555555555-000000',
  timestamp: '2024-05-01T10:00:00.000Z',
  source: 'Sender <sender@Example.com>',
  sourceAddress: 'sender@Example.com',
  region: 'eu-west-1',
  accountId: '123456789012',
  destination: ['a@example.org', 'b@example.org'],
  headers: [
    { name: 'From', value: 'Sender <sender@Example.com>' },
    { name: 'Subject', value: 'Hi' },
  ],
  commonHeaders: { from: ['Sender <sender@Example.com>'], to: ['a@example.org'], messageId: 'x', subject: 'Hi' },
  configurationSet: 'set-1',
  emailTags: { tenant: 't1' },
};

describe('event builders', () => {
  const mail = buildMailObject(input);

  it('builds the mail object with SES system tags and EmailTags', () => {
    expect(mail).toEqual({
      timestamp: '2024-05-01T10:00:00.000Z',
      source: 'Sender <sender@Example.com>',
      sourceArn: 'arn:aws:ses:eu-west-1:123456789012:identity/example.com',
      sendingAccountId: '123456789012',
      messageId: input.messageId,
      destination: ['a@example.org', 'b@example.org'],
      headersTruncated: false,
      headers: input.headers,
      commonHeaders: input.commonHeaders,
      tags: {
        'ses:configuration-set': ['set-1'],
        'ses:source-ip': ['127.0.0.1'],
        'ses:from-domain': ['example.com'],
        'ses:caller-identity': ['local'],
        tenant: ['t1'],
      },
    });
  });

  it('builds Send, Delivery, Bounce and Complaint records', () => {
    const at = new Date('2024-05-01T10:00:01.500Z');
    expect(buildSendEvent(mail)).toEqual({ eventType: 'Send', mail, send: {} });
    expect(buildDeliveryEvent(mail, ['a@example.org'], at)).toMatchObject({
      eventType: 'Delivery',
      mail,
      delivery: {
        timestamp: '2024-05-01T10:00:01.500Z',
        processingTimeMillis: 1500,
        recipients: ['a@example.org'],
        smtpResponse: '250 2.6.0 Message received',
      },
    });
    expect(buildBounceEvent(mail, ['b@example.org'], 'General', at, 'fb-1')).toMatchObject({
      eventType: 'Bounce',
      bounce: {
        feedbackId: 'fb-1',
        bounceType: 'Permanent',
        bounceSubType: 'General',
        bouncedRecipients: [
          { emailAddress: 'b@example.org', action: 'failed', status: '5.1.1', diagnosticCode: 'smtp; 550 5.1.1 user unknown' },
        ],
        timestamp: '2024-05-01T10:00:01.500Z',
      },
    });
    expect(buildComplaintEvent(mail, ['a@example.org'], at, 'fb-2')).toMatchObject({
      eventType: 'Complaint',
      complaint: {
        feedbackId: 'fb-2',
        complainedRecipients: [{ emailAddress: 'a@example.org' }],
        complaintFeedbackType: 'abuse',
        timestamp: '2024-05-01T10:00:01.500Z',
        arrivalDate: '2024-05-01T10:00:01.500Z',
      },
    });
  });
});

describe('mime helpers', () => {
  const raw = Buffer.from(
    [
      'Received: from x',
      'From: =?UTF-8?Q?J=C3=B6rg?= <jorg@example.com>',
      'To: a@example.com, "B, Esq." <b@example.com>',
      'Cc: team: c@example.com, d@example.com;',
      'Subject: =?UTF-8?B?SMOpbGxv?=',
      'X-Long: one',
      '  two',
      '\tthree',
      '',
      'From: not-a-header@example.com',
    ].join('\r\n'),
  );

  it('lists header fields in order, unfolded and undecoded, stopping at the body', () => {
    expect(parseHeaderFields(raw)).toEqual([
      { name: 'Received', value: 'from x' },
      { name: 'From', value: '=?UTF-8?Q?J=C3=B6rg?= <jorg@example.com>' },
      { name: 'To', value: 'a@example.com, "B, Esq." <b@example.com>' },
      { name: 'Cc', value: 'team: c@example.com, d@example.com;' },
      { name: 'Subject', value: '=?UTF-8?B?SMOpbGxv?=' },
      { name: 'X-Long', value: 'one  two\tthree' },
    ]);
  });

  it('handles LF-only messages and messages without a body', () => {
    expect(parseHeaderFields(Buffer.from('A: 1\nB: 2\n\nC: 3'))).toEqual([
      { name: 'A', value: '1' },
      { name: 'B', value: '2' },
    ]);
    expect(parseHeaderFields(Buffer.from('A: 1'))).toEqual([{ name: 'A', value: '1' }]);
  });

  it('decodes subject and addresses (groups flattened)', async () => {
    const d = await decodeHeaders(raw);
    expect(d.subject).toBe('Héllo');
    expect(d.from).toEqual([{ name: 'Jörg', address: 'jorg@example.com' }]);
    expect(d.to.map((m) => m.address)).toEqual(['a@example.com', 'b@example.com']);
    expect(d.cc.map((m) => m.address)).toEqual(['c@example.com', 'd@example.com']);
    expect(formatMailbox(d.to[1]!)).toBe('"B, Esq." <b@example.com>');
    expect(formatMailbox(d.from[0]!)).toBe('"Jörg" <jorg@example.com>');
  });

  it('parses address lists', () => {
    expect(parseAddressList('Ann <ann@example.com>, bob@example.com')).toEqual(['ann@example.com', 'bob@example.com']);
  });
});

describe('mailbox page', () => {
  it('escapes every text field', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
    const html = renderMailboxHtml([
      {
        id: '<id>',
        received_at: '2024-01-01T00:00:00.000Z',
        from: '<evil@example.com>',
        to: ['<img src=x>@example.com'],
        subject: '<b>bold</b>',
        configuration_set: null,
        tags: { '<k>': '<v>' },
        tenant_name: '<ten>',
        events: [{ type: 'Delivery', at: '2024-01-01T00:00:01.000Z' }],
        raw: 'Subject: <b>bold</b>\r\n\r\n<script>x</script>',
        raw_base64: '',
      },
    ]);
    expect(html).not.toMatch(/<(b|script|img)[ >]/);
    expect(html).toContain('&lt;b&gt;bold&lt;/b&gt;');
    expect(html).toContain('&lt;script&gt;x&lt;/script&gt;');
    expect(html).toContain('tenant <code>&lt;ten&gt;</code>');
    expect(html).toContain('<details>');
    expect(renderMailboxHtml([])).toContain('No messages yet.');
    expect(renderMailboxHtml([], 0)).toContain('No messages yet.');
  });

  it('says when only the newest messages are shown', () => {
    const m = {
      id: 'i',
      received_at: 't',
      from: 'f',
      to: [],
      subject: '',
      configuration_set: null,
      tags: {},
      tenant_name: null,
      events: [],
      raw: '',
      raw_base64: '',
    };
    expect(renderMailboxHtml([m], 500)).toContain('Showing the newest 1 of 500 messages');
  });
});
