/**
 * A corpus of bad input sent to the MX listener over a raw socket. Each case has one exact outcome:
 * refused with its SMTP reply code (and nothing recorded), or answered 250 and recorded by the inbound
 * worker with what could be parsed. The worker never crashes: after the corpus a normal message is still
 * recorded, /health is ok and none of its messages is in the inbound DLQ.
 */
import { GetQueueUrlCommand } from '@aws-sdk/client-sqs';
import { createSqsClient } from '#shared/adapters/aws/sqs-client';
import { loadConfig } from '#shared/config/config';
import { MAX_STORED_ATTACHMENTS } from '#shared/domain/inbound/received-email';
import { MX_MAX_HEADER_BYTES, MX_MAX_MESSAGE_BYTES, MX_MAX_RECIPIENTS } from '#shared/doors/mx/mx-server';
import { MAX_MIME_PARTS } from '#shared/adapters/received-mail/parse-message';
import { mx, receivedIds, receivingDomain, waitForReceived } from './harness/inbound';
import { SmtpClient, type Reply } from './harness/smtp';
import { peekBodies } from '../support/queue-peek';
import { api, newAccount, stack, type TestAccount } from './harness/stack';

const CRLF = '\r\n';

/** Connected to the MX and EHLO'd (in clear text, as many sending servers are). */
async function mxClient(): Promise<SmtpClient> {
  const { client, greeting } = await SmtpClient.connect({ target: mx() });
  expect(greeting.code).toBe(220);
  expect((await client.command('EHLO sender.example-mail.test')).code).toBe(250);
  return client;
}

/** One transaction (the message dot-stuffed, line ends made CRLF); the final reply to DATA. */
async function send(from: string, to: string[], message: string | Buffer): Promise<{ mail: Reply; rcpt: Reply[]; done?: Reply }> {
  const client = await mxClient();
  try {
    return await client.transaction(from, to, message);
  } finally {
    await client.quit();
  }
}

/** The id of a 250 answer to DATA, after checking it is one. */
function acceptedId(done: Reply | undefined): string {
  expect(done?.code).toBe(250);
  expect(done!.text).toMatch(/^2\.0\.0 Ok: queued as inb_[0-9A-Z]{26}$/);
  return receivedIds(done!.text)[0]!;
}

const headers = (fields: Record<string, string>) =>
  Object.entries(fields)
    .map(([name, value]) => `${name}: ${value}${CRLF}`)
    .join('');

describe('inbound MX: a bad-input corpus over a raw socket', () => {
  let account: TestAccount;
  let inbox: Awaited<ReturnType<typeof receivingDomain>>;
  /** Recipients of refused messages: nothing may be recorded for them. */
  const refusedTo: string[] = [];

  beforeAll(async () => {
    account = await newAccount({ plan: 'scale', paymentMethod: true });
    inbox = await receivingDomain(account);
  });

  it('refuses a declared SIZE over the limit at MAIL FROM with 552', async () => {
    const client = await mxClient();
    const ehlo = await client.command('EHLO sender.example-mail.test');
    expect(ehlo.lines.map((line) => line.slice(4))).toContain(`SIZE ${MX_MAX_MESSAGE_BYTES}`);
    const mail = await client.command('MAIL FROM:<a@example.org> SIZE=50000000');
    expect(mail.code).toBe(552);
    expect(mail.text).toMatch(/^5\.3\.4 .*maximum message size/);
    // The transaction never started: a recipient now is out of sequence.
    const to = inbox.address('refused-size');
    refusedTo.push(to);
    expect((await client.command(`RCPT TO:<${to}>`)).code).toBe(503);
    // The session is still usable: a SIZE within the limit is taken.
    expect((await client.command(`MAIL FROM:<a@example.org> SIZE=${MX_MAX_MESSAGE_BYTES}`)).code).toBe(250);
    await client.quit();
  });

  it('refuses a header block over 1 MB after DATA with 552 5.3.4 (nothing recorded)', async () => {
    const to = inbox.address('refused-header');
    refusedTo.push(to);
    // X-Big folded over ~14,700 continuation lines: 1.1 MB of header, a tiny body.
    const line = ` ${'x'.repeat(75)}${CRLF}`;
    const folded = line.repeat(Math.ceil((1.1 * 1024 * 1024) / line.length));
    const message = `${headers({ From: 'big@example.org', To: to, Subject: 'Huge header' })}X-Big: start${CRLF}${folded}${CRLF}small body${CRLF}`;
    expect(message.indexOf(`${CRLF}${CRLF}`)).toBeGreaterThan(MX_MAX_HEADER_BYTES);
    const result = await send('big@example.org', [to], message);
    expect(result.mail.code).toBe(250);
    expect(result.rcpt.map((reply) => reply.code)).toEqual([250]);
    expect(result.done?.code).toBe(552);
    expect(result.done!.text).toMatch(/^5\.3\.4 .*header/i);
  });

  it('records a multipart message whose boundary never appears, with its subject', async () => {
    const to = inbox.address('broken-boundary');
    const message =
      headers({
        From: 'Broken <broken@example.org>',
        To: to,
        Subject: 'Boundary never appears',
        'MIME-Version': '1.0',
        'Content-Type': 'multipart/mixed; boundary="never-seen"',
      }) +
      `${CRLF}This body has no delimiter line at all.${CRLF}--some-other-boundary${CRLF}Content-Type: text/plain${CRLF}${CRLF}stray part${CRLF}`;
    const id = acceptedId((await send('broken@example.org', [to], message)).done);
    const email = await waitForReceived(account, id);
    // mailparser reads it as a multipart with no parts: the preamble and the stray part are not content.
    expect(email).toMatchObject({
      id,
      subject: 'Boundary never appears',
      from: 'Broken <broken@example.org>',
      rcpt_to: [to],
      attachment_count: 0,
      attachments: [],
      parse_error: null,
    });
  });

  it('records a multipart message cut off inside a part (no closing delimiter, part header truncated)', async () => {
    const to = inbox.address('truncated-part');
    const message =
      headers({
        From: 'cut@example.org',
        To: to,
        Subject: 'Truncated part',
        'MIME-Version': '1.0',
        'Content-Type': 'multipart/mixed; boundary="b1"',
      }) +
      `${CRLF}--b1${CRLF}Content-Type: text/plain; charset=utf-8${CRLF}${CRLF}first part, complete${CRLF}` +
      `--b1${CRLF}Content-Type: application/pdf; name="cut.pdf"${CRLF}Content-Transfer-Encoding: base64${CRLF}Content-Dispos`;
    const id = acceptedId((await send('cut@example.org', [to], message)).done);
    const email = await waitForReceived(account, id);
    // The complete part is the text; the cut one is still an attachment (its header read as far as it goes).
    expect(email).toMatchObject({
      id,
      subject: 'Truncated part',
      from: 'cut@example.org',
      text: 'first part, complete',
      attachment_count: 1,
      parse_error: null,
    });
  });

  it('records a multipart message with no parts at all (only the closing delimiter), with no attachment', async () => {
    const to = inbox.address('no-parts');
    const message = `${headers({
      From: 'empty@example.org',
      To: to,
      Subject: 'No parts',
      'MIME-Version': '1.0',
      'Content-Type': 'multipart/mixed; boundary="b1"',
    })}${CRLF}--b1--${CRLF}`;
    const id = acceptedId((await send('empty@example.org', [to], message)).done);
    const email = await waitForReceived(account, id);
    expect(email).toMatchObject({ id, subject: 'No parts', attachment_count: 0, attachments: [], parse_error: null });
  });

  it('decodes a raw 8-bit UTF-8 Subject and From display name (not RFC 2047 encoded)', async () => {
    const to = inbox.address('eight-bit');
    const subject = 'Grüße aus Köln — 日本語 ✓';
    const message = Buffer.from(
      `${headers({ From: '"Jürgen Müller" <juergen@example.org>', To: to, Subject: subject })}${CRLF}Hallo, schöne Grüße.${CRLF}`,
      'utf8',
    );
    const id = acceptedId((await send('juergen@example.org', [to], message)).done);
    const email = await waitForReceived(account, id);
    expect(email).toMatchObject({ id, subject, from: 'Jürgen Müller <juergen@example.org>', parse_error: null });
    expect(email.text).toContain('schöne Grüße');
  });

  it('records an attachment bomb (2000 tiny parts): all counted, 100 kept, and the worker stays healthy', async () => {
    const to = inbox.address('bomb');
    const parts = [`--bomb${CRLF}Content-Type: text/plain${CRLF}${CRLF}2000 attachments follow${CRLF}`];
    for (let n = 1; n <= 2000; n++) {
      parts.push(
        `--bomb${CRLF}Content-Type: application/octet-stream${CRLF}Content-Disposition: attachment; filename="f${n}.bin"${CRLF}Content-Transfer-Encoding: base64${CRLF}${CRLF}QUJD${CRLF}`,
      );
    }
    const message =
      headers({
        From: 'bomb@example.org',
        To: to,
        Subject: 'Attachment bomb',
        'MIME-Version': '1.0',
        'Content-Type': 'multipart/mixed; boundary="bomb"',
      }) +
      CRLF +
      parts.join('') +
      `--bomb--${CRLF}`;
    const id = acceptedId((await send('bomb@example.org', [to], message)).done);
    const email = await waitForReceived(account, id, 45_000);
    expect(email).toMatchObject({ id, subject: 'Attachment bomb', attachment_count: 2000, parse_error: null });
    expect(email.attachments).toHaveLength(MAX_STORED_ATTACHMENTS);
    expect(email.attachments[0]).toMatchObject({ id: 'att_1', filename: 'f1.bin', size: 3 });
    expect(email.attachments[MAX_STORED_ATTACHMENTS - 1]).toMatchObject({
      id: `att_${MAX_STORED_ATTACHMENTS}`,
      filename: `f${MAX_STORED_ATTACHMENTS}.bin`,
    });

    // A normal message afterwards is recorded.
    const after = inbox.address('after-bomb');
    const next = acceptedId(
      (
        await send(
          'normal@example.org',
          [after],
          `${headers({ From: 'normal@example.org', To: after, Subject: 'After the bomb' })}${CRLF}hello${CRLF}`,
        )
      ).done,
    );
    expect(await waitForReceived(account, next)).toMatchObject({ subject: 'After the bomb', parse_error: null, attachment_count: 0 });
  }, 90_000);

  it(`records a message past the parser's ${MAX_MIME_PARTS} MIME parts with its top header fields and a parse_error`, async () => {
    const to = inbox.address('too-many-parts');
    const part = `--p${CRLF}Content-Type: application/octet-stream${CRLF}${CRLF}A${CRLF}`;
    const message =
      headers({
        From: 'parts@example.org',
        To: to,
        Subject: 'Too many parts',
        'MIME-Version': '1.0',
        'Content-Type': 'multipart/mixed; boundary="p"',
      }) +
      CRLF +
      part.repeat(MAX_MIME_PARTS + 1) +
      `--p--${CRLF}`;
    const id = acceptedId((await send('parts@example.org', [to], message)).done);
    const email = await waitForReceived(account, id, 30_000);
    expect(email).toMatchObject({
      id,
      subject: 'Too many parts',
      from: 'parts@example.org',
      to: [to],
      text: null,
      html: null,
      attachment_count: 0,
      attachments: [],
    });
    expect(email.parse_error).toMatch(/child nodes/i);
  });

  it('records a message nested 200 multipart levels deep', async () => {
    const to = inbox.address('deep');
    const depth = 200;
    let body = `Content-Type: text/plain${CRLF}${CRLF}the bottom of the nest${CRLF}`;
    for (let level = depth - 1; level >= 0; level--) {
      body = `Content-Type: multipart/mixed; boundary="lvl${level}"${CRLF}${CRLF}--lvl${level}${CRLF}${body}--lvl${level}--${CRLF}`;
    }
    const message = headers({ From: 'deep@example.org', To: to, Subject: 'Deep nesting', 'MIME-Version': '1.0' }) + body;
    const id = acceptedId((await send('deep@example.org', [to], message)).done);
    const email = await waitForReceived(account, id, 30_000);
    expect(email).toMatchObject({
      id,
      subject: 'Deep nesting',
      from: 'deep@example.org',
      text: 'the bottom of the nest',
      attachment_count: 0,
      parse_error: null,
    });
  });

  it(`refuses the ${MX_MAX_RECIPIENTS + 1}st RCPT TO of a transaction with 452 4.5.3 and takes the first ${MX_MAX_RECIPIENTS}`, async () => {
    const recipients = Array.from({ length: MX_MAX_RECIPIENTS + 1 }, (_, n) => inbox.address(`many${n + 1}`));
    const result = await send(
      'many@example.org',
      recipients,
      `${headers({ From: 'many@example.org', To: recipients[0]!, Subject: 'Many recipients' })}${CRLF}hi${CRLF}`,
    );
    expect(result.rcpt.slice(0, MX_MAX_RECIPIENTS).every((reply) => reply.code === 250)).toBe(true);
    expect(result.rcpt[MX_MAX_RECIPIENTS]!.code).toBe(452);
    expect(result.rcpt[MX_MAX_RECIPIENTS]!.text).toMatch(/^4\.5\.3 /);
    const id = acceptedId(result.done);
    const email = await waitForReceived(account, id);
    expect(email.rcpt_to).toEqual(recipients.slice(0, MX_MAX_RECIPIENTS));
  });

  it('records a body with NUL bytes and bare LF line ends', async () => {
    const to = inbox.address('nul-lf');
    const client = await mxClient();
    expect((await client.command('MAIL FROM:<nul@example.org>')).code).toBe(250);
    expect((await client.command(`RCPT TO:<${to}>`)).code).toBe(250);
    expect((await client.command('DATA')).code).toBe(354);
    // Written as is (no CRLF conversion): bare LF everywhere, NULs in the body; then the end of data.
    client.write(
      Buffer.from(
        `From: nul@example.org\nTo: ${to}\nSubject: NUL and bare LF\n\nline one\0with a NUL\nline two\n\0\0\nlast line\n`,
        'latin1',
      ),
    );
    client.write(`${CRLF}.${CRLF}`);
    const done = await client.reply(30_000);
    await client.quit();
    const id = acceptedId(done);
    const email = await waitForReceived(account, id);
    expect(email).toMatchObject({
      id,
      subject: 'NUL and bare LF',
      from: 'nul@example.org',
      rcpt_to: [to],
      attachment_count: 0,
      parse_error: null,
    });
    // The NULs are kept in the text as they came.
    expect(email.text).toContain('line one\0with a NUL\nline two\n\0\0\nlast line');
  });

  it('recorded nothing for the refused messages, and is healthy after the corpus', async () => {
    for (const to of refusedTo) {
      const listed = await api('GET', `/received-emails?to=${encodeURIComponent(to)}`, { key: account.key });
      expect(listed.status).toBe(200);
      expect(listed.body.received_emails).toEqual([]);
    }
    const all = await api('GET', '/received-emails?limit=100', { key: account.key });
    expect(all.body.received_emails.map((email: { subject: string }) => email.subject)).not.toContain('Huge header');

    const health = await api('GET', '/health');
    expect(health.status).toBe(200);
    expect(health.body.status).toBe('ok');
    expect(health.body.components['worker:inbound-email']).toBe('up');
    expect(health.body.mx.state).toBe('up');
    // None of this account's messages failed into the DLQ (other files fail theirs on purpose: inbound-dlq.test.ts).
    // The test stack's visibility timeout is 1 s, so a message slower than that (the attachment bomb, on a
    // loaded machine) is received again while it is processed and a copy can reach the DLQ after being
    // recorded: a copy of a recorded message is a slow one, a failed one has no record.
    const sqs = createSqsClient(loadConfig(process.env));
    try {
      const { QueueUrl } = await sqs.send(new GetQueueUrlCommand({ QueueName: stack().info.resources!.queues.inbound!.dlqName }));
      const ours = (await peekBodies<{ account_id?: string; email_id: string }>(sqs, QueueUrl!)).filter(
        (body) => body?.account_id === account.id,
      );
      const unrecorded = [];
      for (const id of new Set(ours.map((body) => body.email_id))) {
        if ((await api('GET', `/received-emails/${id}`, { key: account.key })).status !== 200) unrecorded.push(id);
      }
      expect(unrecorded).toEqual([]);
    } finally {
      sqs.destroy();
    }
  });
});
