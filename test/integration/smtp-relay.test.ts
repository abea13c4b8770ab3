/**
 * The SMTP relay is a second door to the same send core: the same content sent through POST /emails and
 * through SMTP (nodemailer, STARTTLS + AUTH) gives the same record, the same webhooks and the same
 * refusals; the relayed message is delivered as the client wrote it (DKIM-signed, bcc only in the
 * envelope, parts byte for byte, dangerous transport fields stripped).
 */
import { simpleParser } from 'mailparser';
import MailComposer from 'nodemailer/lib/mail-composer';
import { verifyDkim } from '../support/mailauth-dkim';
import { localResolver, publishAll, uniqueDomain } from './harness/dns';
import { createSmtpCredential, queuedId, transport, type SmtpCredential } from './harness/smtp';
import { api, emailOf, newAccount, sesMessagesFor, stack, uniqueEmail, waitFor, waitForStatus, type TestAccount } from './harness/stack';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { keys } from '#shared/adapters/store/keys';
import { INLINE_MIME_LIMIT } from '#shared/usecases/send/content-keys';
import { createTenant } from './harness/tenants';
import { documentClient, setUsage, today } from './harness/usage';
import { startHttpsReceiver, type HttpsReceiver } from '../support/https-receiver';

const SANDBOX = 'sandbox.mailservice.dev';
const certs = () => ({ certFile: process.env.TEST_WEBHOOK_CERT_FILE!, keyFile: process.env.TEST_WEBHOOK_KEY_FILE! });

/** What an email record says about its content (not its id or times). */
const content = (email: Record<string, unknown>) => {
  const { id: _id, created_at: _created, sent_at: _sent, delivered_at: _delivered, message_id: _messageId, ...rest } = email;
  return rest;
};

/** The header block of a raw message and the rest (the empty line and the body), as text. */
function split(raw: string): { header: string; rest: string } {
  const end = raw.indexOf('\r\n\r\n');
  return { header: raw.slice(0, end + 2), rest: raw.slice(end + 2) };
}

/** A 1x1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

describe('the SMTP relay, one door of the send core', () => {
  let account: TestAccount;
  let domain: string;
  let credential: SmtpCredential;
  let hooks: HttpsReceiver;
  let tenant: { id: string; external_id: string };

  beforeAll(async () => {
    account = await newAccount({ plan: 'scale', paymentMethod: true, tenants: true });
    domain = uniqueDomain();
    const created = await api('POST', '/domains', { key: account.key, body: { name: domain } });
    await publishAll(created.body.domain.records);
    expect(
      (await api('POST', `/domains/${created.body.domain.id}`, { key: account.key, body: { action: 'verify' } })).body.domain.status,
    ).toBe('verified');
    credential = await createSmtpCredential(account);
    hooks = await startHttpsReceiver(certs());
    expect(
      (await api('POST', '/webhooks', { key: account.key, body: { url: hooks.url, events: ['email.sent', 'email.delivered'] } })).status,
    ).toBe(200);
    tenant = await createTenant(account, {}, 'smtp');
  });
  afterAll(async () => {
    await hooks.close();
  });

  it('records, delivers (DKIM-signed, bcc in the envelope only) and reports a message as POST /emails does', async () => {
    const [ann, bob, carol] = [uniqueEmail('ann'), uniqueEmail('bob'), uniqueEmail('carol')];
    const fields = {
      from: `Acme <hello@${domain}>`,
      to: `Ann <${ann}>`,
      cc: bob,
      bcc: carol,
      reply_to: `help@${domain}`,
      subject: 'Parity check',
      html: '<p>Hello <b>there</b></p>',
      text: 'Hello there',
    };
    const viaApi = await api('POST', '/emails', {
      key: account.key,
      body: { ...fields, headers: { 'X-Campaign': 'spring' }, tags: [{ name: 'kind', value: 'welcome' }] },
    });
    expect(viaApi.status).toBe(200);
    const info = await transport(credential.password).sendMail({
      from: fields.from,
      to: fields.to,
      cc: fields.cc,
      bcc: fields.bcc,
      replyTo: fields.reply_to,
      subject: fields.subject,
      html: fields.html,
      text: fields.text,
      headers: { 'X-Campaign': 'spring', 'X-Service-Tags': 'kind=welcome' },
    });
    expect(info.response).toMatch(/^250 2\.0\.0 Ok: queued as msg_[0-9A-Z]{26}$/);
    expect(info.accepted).toEqual([ann, bob, carol]);
    const id = queuedId(info.response);

    const [apiEmail, smtpEmail] = await Promise.all([
      waitForStatus(account, viaApi.body.id, 'delivered'),
      waitForStatus(account, id, 'delivered'),
    ]);
    expect(content(smtpEmail)).toEqual(content(apiEmail));
    expect(smtpEmail).toMatchObject({
      from: fields.from,
      to: [fields.to],
      cc: [bob],
      bcc: [carol],
      reply_to: [fields.reply_to],
      tags: [{ name: 'kind', value: 'welcome' }],
      tenant: null,
    });

    const [message] = await sesMessagesFor(id);
    expect(message!.to.sort()).toEqual([ann, bob, carol].sort());
    const { header } = split(message!.raw);
    expect(header).not.toContain(carol);
    expect(header).toMatch(/^X-Campaign: spring\r$/m);
    expect(header).toMatch(new RegExp(`^X-Service-Message-Id: ${id}\r$`, 'm'));
    expect(header).not.toMatch(/^X-Service-Tags:/im);
    // SES replaces the client's Message-ID with its own, which the record exposes (docs/smtp.md, "Fidelity").
    expect(header.replace(/\r\n[ \t]+/g, ' ')).not.toContain(info.messageId);
    expect(header).toContain(`Message-ID: ${smtpEmail.message_id}`);
    const resolver = localResolver();
    const dkim = await verifyDkim(Buffer.from(message!.raw_base64, 'base64'), (name) => resolver.resolveTxt(name));
    expect(dkim.find((result) => result.domain === domain)?.status).toBe('pass');

    // Webhooks: email.sent and email.delivered for both, with the same data but for ids and times.
    const eventsOf = async (emailId: string) =>
      waitFor(
        async () => {
          const bodies = hooks.requests.map((request) => JSON.parse(request.body)).filter((event) => event.data.email_id === emailId);
          // Deliveries are at least once: a retried delivery (a slow answer under load) is the same event again.
          const once = [...new Map(bodies.map((event) => [event.type, event])).values()];
          return once.length >= 2 ? once.sort((a, b) => a.type.localeCompare(b.type)) : undefined;
        },
        `webhooks of ${emailId}`,
        30_000,
      );
    const [apiEvents, smtpEvents] = await Promise.all([eventsOf(viaApi.body.id), eventsOf(id)]);
    const comparable = (event: { type: string; data: Record<string, unknown> }) => {
      const { email_id: _id, created_at: _c, sent_at: _s, delivered_at: _d, message_id: _m, ...data } = event.data;
      return { type: event.type, data };
    };
    expect(smtpEvents.map(comparable)).toEqual(apiEvents.map(comparable));
    expect(smtpEvents.map((event: { type: string }) => event.type)).toEqual(['email.delivered', 'email.sent']);
  });

  it('delivers the message byte for byte (an inline image by Content-ID included), only adding its own fields and stripping transport ones', async () => {
    const to = uniqueEmail('img');
    const composed = await new MailComposer({
      from: `Acme <hello@${domain}>`,
      to,
      subject: 'Inline image',
      html: '<p>Logo: <img src="cid:logo@acme"></p>',
      text: 'Logo',
      attachments: [{ filename: 'logo.png', content: PNG, cid: 'logo@acme', contentDisposition: 'inline' }],
      headers: {
        'X-Custom-Trace': 'keep me',
        'Return-Path': '<bounce@elsewhere.example>',
        'DKIM-Signature': 'v=1; a=rsa-sha256; d=elsewhere.example; s=x; b=forged',
        'X-SES-CONFIGURATION-SET': 'someone-elses',
        'Authentication-Results': 'mx.example; dkim=pass',
        Bcc: 'leak@example.org',
      },
    })
      .compile()
      .build();
    const info = await transport(credential.password).sendMail({ envelope: { from: `hello@${domain}`, to: [to] }, raw: composed });
    const id = queuedId(info.response);
    await waitForStatus(account, id, 'delivered');
    const [message] = await sesMessagesFor(id);
    const delivered = Buffer.from(message!.raw_base64, 'base64').toString('latin1');
    const original = composed.toString('latin1');
    // Everything after the header, every part and boundary, is what the client sent.
    expect(split(delivered).rest).toBe(split(original).rest);
    const header = split(delivered).header;
    expect(header).toMatch(/^X-Custom-Trace: keep me\r$/m);
    for (const gone of [
      'Return-Path',
      'DKIM-Signature: v=1; a=rsa-sha256; d=elsewhere',
      'X-SES-CONFIGURATION-SET',
      'Authentication-Results',
      'Bcc',
      'leak@example.org',
    ]) {
      expect(header).not.toContain(gone);
    }
    const parsed = await simpleParser(Buffer.from(message!.raw_base64, 'base64'));
    const image = parsed.attachments.find((attachment) => attachment.cid === 'logo@acme');
    expect(image?.content.equals(PNG)).toBe(true);
    expect(delivered).toContain('src="cid:logo@acme"');
  });

  it('keeps a short message in its record and a long one in the bucket, and delivers both byte for byte', async () => {
    const compose = (subject: string, text: string) =>
      new MailComposer({ from: `Acme <hello@${domain}>`, to: uniqueEmail('size'), subject, text }).compile().build();
    const [short, long] = await Promise.all([compose('Short', 'Your code is 123456'), compose('Long', 'line of text\r\n'.repeat(400))]);
    expect(short.length).toBeLessThanOrEqual(INLINE_MIME_LIMIT);
    expect(long.length).toBeGreaterThan(INLINE_MIME_LIMIT);
    const ids: string[] = [];
    for (const raw of [short, long]) {
      const info = await transport(credential.password).sendMail({ envelope: { from: `hello@${domain}`, to: [uniqueEmail('size')] }, raw });
      ids.push(queuedId(info.response));
    }
    await Promise.all(ids.map((id) => waitForStatus(account, id, 'delivered')));
    const client = documentClient();
    try {
      const items = await Promise.all(
        ids.map(async (id) => (await client.send(new GetCommand({ TableName: stack().info.env.TABLE_NAME, Key: keys.email(id) }))).Item!),
      );
      expect(Buffer.from(items[0]!.mime_inline as Uint8Array).equals(short)).toBe(true);
      expect(items[0]!.mime_blob_key).toBeUndefined();
      expect(items[1]!.mime_inline).toBeUndefined();
      expect(items[1]!.mime_blob_key).toMatch(new RegExp(`raw/${ids[1]}\\.eml$`));
    } finally {
      client.destroy();
    }
    for (const [i, raw] of [short, long].entries()) {
      const [message] = await sesMessagesFor(ids[i]!);
      expect(split(Buffer.from(message!.raw_base64, 'base64').toString('latin1')).rest).toBe(split(raw.toString('latin1')).rest);
    }
  });

  it('resends an SMTP email as the same message with a new Message-ID (POST /emails/{id}/resend)', async () => {
    const to = uniqueEmail('again');
    const composed = await new MailComposer({
      from: `Acme <hello@${domain}>`,
      to,
      subject: 'Once more',
      text: 'Same bytes',
      messageId: '<original@client.example>',
    })
      .compile()
      .build();
    const first = queuedId(
      (await transport(credential.password).sendMail({ envelope: { from: `hello@${domain}`, to: [to] }, raw: composed })).response,
    );
    await waitForStatus(account, first, 'delivered');
    const resent = await api('POST', `/emails/${first}/resend`, { key: account.key });
    expect(resent.status).toBe(200);
    expect(resent.body.id).not.toBe(first);
    const again = await waitForStatus(account, resent.body.id, 'delivered');
    expect(again).toMatchObject({ from: `Acme <hello@${domain}>`, to: [to], subject: 'Once more' });
    const [[original], [copy]] = await Promise.all([sesMessagesFor(first), sesMessagesFor(resent.body.id)]);
    const originalRaw = Buffer.from(original!.raw_base64, 'base64').toString('latin1');
    const copyRaw = Buffer.from(copy!.raw_base64, 'base64').toString('latin1');
    expect(split(copyRaw).rest).toBe(split(originalRaw).rest);
    // SES replaces the client's Message-ID on both with one of its own, which each record exposes.
    const firstEmail = await emailOf(account, first);
    expect(split(originalRaw).header).toContain(`Message-ID: ${firstEmail.message_id}\r`);
    expect(split(copyRaw).header).toContain(`Message-ID: ${again.message_id}\r`);
    expect(again.message_id).not.toBe(firstEmail.message_id);
    expect(originalRaw + copyRaw).not.toContain('original@client.example');
  });

  it('replays an X-Service-Idempotency-Key retry with the same id, and refuses the key for another message (550 5.6.0)', async () => {
    const to = uniqueEmail('idem');
    const key = `order-${Date.now()}`;
    const raw = Buffer.from(
      `From: hello@${domain}\r\nTo: ${to}\r\nSubject: Once\r\nX-Service-Idempotency-Key: ${key}\r\n\r\nOnly once\r\n`,
    );
    const send = (message: Buffer) =>
      transport(credential.password).sendMail({ envelope: { from: `hello@${domain}`, to: [to] }, raw: message });
    const [first, again] = [await send(raw), await send(raw)];
    expect(queuedId(again.response)).toBe(queuedId(first.response));
    await waitForStatus(account, queuedId(first.response), 'delivered');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await sesMessagesFor(queuedId(first.response))).toHaveLength(1);
    const other = await send(Buffer.from(raw.toString().replace('Only once', 'Something else'))).catch(
      (error: { responseCode?: number; response?: string }) => error,
    );
    expect(other).toMatchObject({
      responseCode: 550,
      response: expect.stringMatching(/^550 5\.6\.0 This Idempotency-Key was already used with a different request body/),
    });
  });

  it('sends for the tenant named by X-Service-Tenant, in the category of X-Service-Category, and schedules with X-Service-Scheduled-At', async () => {
    const to = uniqueEmail('ten');
    const info = await transport(credential.password).sendMail({
      from: `hello@${domain}`,
      to,
      subject: 'For a tenant',
      text: 'hi',
      headers: { 'X-Service-Tenant': tenant.external_id, 'X-Service-Category': 'product' },
    });
    const email = await waitForStatus(account, queuedId(info.response), 'delivered');
    expect(email.tenant).toBe(tenant.external_id);
    await waitFor(async () => {
      const listed = await api('GET', `/emails?tenant=${encodeURIComponent(tenant.external_id)}`, { key: account.key });
      return listed.body.emails?.some((e: { id: string }) => e.id === email.id);
    }, "the tenant's listing to show the email");

    // Five seconds from now, not from the start of the test: the sends above may take that long on a busy machine.
    const at = new Date(Date.now() + 5000).toISOString();
    const later = await transport(credential.password).sendMail({
      from: `hello@${domain}`,
      to,
      subject: 'Later',
      text: 'hi',
      headers: { 'X-Service-Scheduled-At': at },
    });
    expect(later.response).toMatch(/queued as msg_.* \(scheduled for /);
    const scheduledId = queuedId(later.response);
    expect(await emailOf(account, scheduledId)).toMatchObject({ status: 'scheduled', scheduled_at: new Date(at).toISOString() });
    // When its time comes the stored message is delivered, as written.
    await waitForStatus(account, scheduledId, 'delivered', 20_000);
    const [message] = await sesMessagesFor(scheduledId);
    expect(message!.raw).toMatch(/^Subject: Later\r$/m);
    expect(message!.raw).not.toMatch(/^X-Service-Scheduled-At/im);
  });

  it('refuses an unverified sender at MAIL FROM with the API refusal (550 5.7.1)', async () => {
    const viaApi = await api('POST', '/emails', {
      key: account.key,
      body: { from: 'me@unverified-example.com', to: account.email, subject: 's', text: 't' },
    });
    expect(viaApi.status).toBe(403);
    const error = await transport(credential.password)
      .sendMail({ from: 'me@unverified-example.com', to: account.email, subject: 's', text: 't' })
      .catch((e: { responseCode?: number; response?: string; command?: string }) => e);
    expect(error).toMatchObject({ responseCode: 550, command: 'MAIL FROM' });
    expect((error as { response: string }).response).toBe(`550 5.7.1 ${viaApi.body.error.message} ${viaApi.body.error.hint}`);
  });

  it('refuses a suppressed recipient at RCPT TO (550 5.1.1 with the reason) and still delivers to the others', async () => {
    const [gone, kept] = [uniqueEmail('gone'), uniqueEmail('kept')];
    expect((await api('POST', '/suppressions', { key: account.key, body: { email: gone } })).status).toBeLessThan(300);
    const viaApi = await api('POST', '/emails', {
      key: account.key,
      body: { from: `hello@${domain}`, to: [gone, kept], subject: 's', text: 't' },
    });
    expect(viaApi.status).toBe(422);
    const info = await transport(credential.password).sendMail({ from: `hello@${domain}`, to: [gone, kept], subject: 'Partly', text: 't' });
    expect(info.rejected).toEqual([gone]);
    expect((info as unknown as { rejectedErrors: { response: string }[] }).rejectedErrors[0]!.response).toMatch(
      /^550 5\.1\.1 The recipient .* is on the account's suppression list \(reason: manual/,
    );
    const email = await waitForStatus(account, queuedId(info.response), 'delivered');
    // The header still shows both (the client's message); the record and the envelope only the recipient.
    expect(email).toMatchObject({ to: [kept], bcc: [] });
    const [message] = await sesMessagesFor(email.id);
    expect(message!.to).toEqual([kept]);
  });

  it('applies the sandbox recipient rule at RCPT TO (550 5.7.1), as the API does', async () => {
    const sandboxAccount = await newAccount();
    const sandboxCredential = await createSmtpCredential(sandboxAccount);
    const stranger = uniqueEmail('stranger');
    const viaApi = await api('POST', '/emails', {
      key: sandboxAccount.key,
      body: { from: `a@${SANDBOX}`, to: stranger, subject: 's', text: 't' },
    });
    expect(viaApi.body.error.code).toBe('recipient_not_allowed');
    const info = await transport(sandboxCredential.password).sendMail({
      from: `a@${SANDBOX}`,
      to: [stranger, sandboxAccount.email],
      subject: 'Sandbox',
      text: 't',
    });
    expect(info.rejected).toEqual([stranger]);
    expect((info as unknown as { rejectedErrors: { response: string }[] }).rejectedErrors[0]!.response).toMatch(
      /^550 5\.7\.1 The sandbox sender can only send to the account email/,
    );
    expect(await waitForStatus(sandboxAccount, queuedId(info.response), 'delivered')).toMatchObject({ to: [sandboxAccount.email] });
  });

  it('refuses at DATA what the plan no longer allows today (451 4.7.1), as the API refuses with 429', async () => {
    const limited = await newAccount({ plan: 'free' });
    const limitedCredential = await createSmtpCredential(limited);
    await setUsage(limited.id, 'PLAN', 'DAY', today(), 100);
    const viaApi = await api('POST', '/emails', {
      key: limited.key,
      body: { from: `a@${SANDBOX}`, to: limited.email, subject: 's', text: 't' },
    });
    expect(viaApi.status).toBe(429);
    const error = await transport(limitedCredential.password)
      .sendMail({ from: `a@${SANDBOX}`, to: limited.email, subject: 's', text: 't' })
      .catch((e: { responseCode?: number; response?: string; command?: string }) => e);
    expect(error).toMatchObject({
      responseCode: 451,
      command: 'DATA',
      response: expect.stringMatching(/^451 4\.7\.1 The free plan's daily limit of 100 emails would be exceeded/),
    });
  });
});
