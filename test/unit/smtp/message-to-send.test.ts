import { messageToSend, messageFingerprint } from '#shared/doors/smtp/message-to-send';
import { ValidationError } from '#shared/domain/errors';

const crlf = (lines: string[], body = 'Hello\r\n') => Buffer.from(`${lines.join('\r\n')}\r\n\r\n${body}`, 'utf8');
const envelope = (rcptTo: string[], mailFrom = 'hello@acme.test') => ({ mailFrom, rcptTo });

describe('a relayed message as a send request', () => {
  it('reads the record from the header, with recipients from the envelope (bcc: the ones no field names)', async () => {
    const raw = crlf([
      'From: "=?UTF-8?Q?Acme_Caf=C3=A9?=" <hello@acme.test>',
      'To: Ann <ann@example.org>, shown-only@example.org',
      'Cc: =?UTF-8?Q?Bj=C3=B6rn?= <bjorn@example.org>',
      'Bcc: hidden@example.org',
      'Reply-To: help@acme.test',
      'Subject: =?UTF-8?Q?Caf=C3=A9?= news',
      ' folded',
      'Date: Tue, 01 Jan 2030 09:00:00 +0000',
      'Message-ID: <abc@acme.test>',
      'MIME-Version: 1.0',
      'Content-Type: text/plain; charset=utf-8',
      'Received: from x by y',
      'X-Campaign: spring',
      'In-Reply-To: <prev@acme.test>',
      'X-Service-Tags: kind=welcome, batch=b_1',
      'X-Service-Tenant: customer-42',
      'X-Service-Category: product',
    ]);
    const sent = await messageToSend(raw, envelope(['ANN@example.org', 'bjorn@example.org', 'hidden@example.org', 'other@example.org']));
    expect(sent.request).toEqual({
      from: { email: 'hello@acme.test', name: 'Acme Café' },
      to: ['Ann <ann@example.org>'],
      cc: ['"Björn" <bjorn@example.org>'], // quoted as formatMailbox quotes an API send's name
      bcc: ['hidden@example.org', 'other@example.org'],
      reply_to: ['help@acme.test'],
      subject: 'Café news folded',
      headers: { 'X-Campaign': 'spring', 'In-Reply-To': '<prev@acme.test>' },
      tags: [
        { name: 'kind', value: 'welcome' },
        { name: 'batch', value: 'b_1' },
      ],
      tenant: 'customer-42',
      category: 'product',
    });
    expect(sent.stripped).toEqual(['bcc', 'x-service-tags', 'x-service-tenant', 'x-service-category']);
    const delivered = sent.raw.toString('utf8');
    expect(delivered).not.toMatch(/^Bcc:/im);
    expect(delivered).not.toMatch(/^X-Service-/im);
    expect(delivered).toContain('Message-ID: <abc@acme.test>\r\n');
    expect(delivered.endsWith('\r\n\r\nHello\r\n')).toBe(true);
    expect(sent.idempotency).toBeUndefined();
  });

  it('records no `to` when the header names none of the envelope (undisclosed recipients)', async () => {
    const sent = await messageToSend(
      crlf(['From: a@acme.test', 'To: undisclosed-recipients:;', 'Subject: x']),
      envelope(['one@example.org', 'two@example.org']),
    );
    expect(sent.request).toMatchObject({ to: [], bcc: ['one@example.org', 'two@example.org'] });
  });

  it('refuses a message without From, with two, or with an invalid one (400)', async () => {
    await expect(messageToSend(crlf(['To: a@example.org', 'Subject: x']), envelope(['a@example.org']))).rejects.toThrow(
      /From field is missing/,
    );
    await expect(messageToSend(crlf(['From: a@acme.test', 'From: b@acme.test']), envelope(['a@example.org']))).rejects.toThrow(
      /more than once/,
    );
    await expect(messageToSend(crlf(['From: not an address']), envelope(['a@example.org']))).rejects.toBeInstanceOf(ValidationError);
    await expect(messageToSend(crlf(['From: a@acme.test, b@acme.test']), envelope(['a@example.org']))).rejects.toThrow(/exactly one/);
  });

  it('accepts a message without Subject (recorded as empty) and a header-only message', async () => {
    const sent = await messageToSend(Buffer.from('From: a@acme.test\r\nTo: x@example.org\r\n'), envelope(['x@example.org']));
    expect(sent.request).toMatchObject({ subject: '', to: ['x@example.org'] });
  });

  it('makes an idempotency key from X-Service-Idempotency-Key, fingerprinting envelope and message as received', async () => {
    const raw = crlf(['From: a@acme.test', 'To: x@example.org', 'X-Service-Idempotency-Key: order-42']);
    const sent = await messageToSend(raw, envelope(['x@example.org']));
    expect(sent.idempotency).toEqual({ key: 'order-42', fingerprint: messageFingerprint(raw, envelope(['x@example.org'])) });
    // Same message, same recipients in another order: same fingerprint; another recipient or byte: another.
    expect(messageFingerprint(raw, envelope(['X@example.org']))).toBe(sent.idempotency!.fingerprint);
    expect(messageFingerprint(raw, envelope(['x@example.org', 'y@example.org']))).not.toBe(sent.idempotency!.fingerprint);
    expect(messageFingerprint(Buffer.concat([raw, Buffer.from('!')]), envelope(['x@example.org']))).not.toBe(sent.idempotency!.fingerprint);
  });

  it('reads X-Service-Scheduled-At as an ISO time, and refuses bad feature fields naming the field', async () => {
    const at = await messageToSend(
      crlf(['From: a@acme.test', 'To: x@example.org', 'X-Service-Scheduled-At: 2030-01-01T10:00:00+01:00']),
      envelope(['x@example.org']),
    );
    expect(at.request.scheduled_at).toBe('2030-01-01T09:00:00.000Z');
    for (const [field, value, message] of [
      ['X-Service-Scheduled-At', 'tomorrow', /ISO 8601/],
      ['X-Service-Category', 'promo', /one of transactional, product, newsletter/],
      ['X-Service-Tags', 'no value', /name=value/],
      ['X-Service-Tags', Array.from({ length: 11 }, (_, i) => `t${i}=v`).join(', '), /at most 10 tags/],
      ['X-Service-Idempotency-Key', 'has spaces in it', /printable ASCII/],
      ['X-Service-Tag', 'a=b', /unknown field/],
    ] as const) {
      const error = await messageToSend(
        crlf(['From: a@acme.test', 'To: x@example.org', `${field}: ${value}`]),
        envelope(['x@example.org']),
      ).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).message).toMatch(message);
      expect((error as ValidationError).details).toEqual({ fields: [{ field, message: expect.any(String) }] });
    }
    await expect(
      messageToSend(crlf(['From: a@acme.test', 'X-Service-Tenant: a', 'X-Service-Tenant: b']), envelope(['x@example.org'])),
    ).rejects.toThrow(/more than once/);
  });

  it('reads X-Service-Unsubscribe true or false (any case) as managed unsubscribe; anything else is refused naming it', async () => {
    const on = await messageToSend(
      crlf(['From: a@acme.test', 'To: x@example.org', 'X-Service-Unsubscribe: TRUE']),
      envelope(['x@example.org']),
    );
    expect(on.request.unsubscribe).toBe(true);
    const off = await messageToSend(
      crlf(['From: a@acme.test', 'To: x@example.org', 'X-Service-Unsubscribe: false']),
      envelope(['x@example.org']),
    );
    expect(off.request.unsubscribe).toBe(false);
    const absent = await messageToSend(crlf(['From: a@acme.test', 'To: x@example.org']), envelope(['x@example.org']));
    expect(absent.request.unsubscribe).toBeUndefined();
    const error = await messageToSend(
      crlf(['From: a@acme.test', 'To: x@example.org', 'X-Service-Unsubscribe: yes']),
      envelope(['x@example.org']),
    ).catch((e: unknown) => e);
    expect((error as ValidationError).details).toEqual({ fields: [{ field: 'X-Service-Unsubscribe', message: 'true or false' }] });
  });

  it('leaves a client X-Service-Message-Id out silently (the service sets its own)', async () => {
    const sent = await messageToSend(
      crlf(['From: a@acme.test', 'To: x@example.org', 'X-Service-Message-Id: msg_old']),
      envelope(['x@example.org']),
    );
    expect(sent.raw.toString()).not.toContain('msg_old');
    expect(sent.request.headers).toBeUndefined();
  });

  it('records header values decoded, and only the fields an API send could give as headers (the message keeps them all)', async () => {
    const raw = crlf([
      'From: a@acme.test',
      'To: x@example.org',
      'X-Note: =?UTF-8?Q?caf=C3=A9?= =?UTF-8?Q?_cr=C3=A8me?=',
      'List-Unsubscribe: <https://acme.test/u/1>',
      'List-Unsubscribe-Post: List-Unsubscribe=One-Click',
      'X-Broken: =?UTF-8?Q?line=0Abreak?=',
      `X-Huge: ${'x'.repeat(999)}`,
      'X-Kept: plain',
    ]);
    const sent = await messageToSend(raw, envelope(['x@example.org']));
    expect(sent.request.headers).toEqual({ 'X-Note': 'café crème', 'X-Kept': 'plain' });
    expect(sent.raw.equals(raw)).toBe(true);
  });

  it('keeps an 8-bit body byte for byte, and refuses raw 8-bit header text naming the field (SES takes 7-bit headers)', async () => {
    const raw = Buffer.from(
      'From: =?UTF-8?Q?Zo=C3=AB?= <zoe@acme.test>\r\nTo: x@example.org\r\nSubject: =?UTF-8?Q?Gr=C3=BC=C3=9Fe?=\r\n\r\nBody ünïcödé\r\n',
      'utf8',
    );
    const sent = await messageToSend(raw, envelope(['x@example.org']));
    expect(sent.raw.equals(raw)).toBe(true);
    expect(sent.request).toMatchObject({ from: { email: 'zoe@acme.test', name: 'Zoë' }, subject: 'Grüße' });
    const eightBit = Buffer.from('From: zoe@acme.test\r\nTo: x@example.org\r\nSubject: hi\r\nX-Note: naïve\r\n\r\nx\r\n', 'utf8');
    await expect(messageToSend(eightBit, envelope(['x@example.org']))).rejects.toMatchObject({
      message: expect.stringMatching(/X-Note field has raw 8-bit/),
    });
  });
});
