/**
 * Inbound mail end to end on the local cloud: a sending server (nodemailer, a raw socket) hands mail to
 * the MX listener; the message is stored, processed by the inbound worker, recorded, published as
 * email.received and served by GET /received-emails. SPF, DKIM and DMARC are checked by the listener
 * against records in the DNS emulator and reach the record through the queue message (one queued without
 * them, as before the listener checked, is recorded unchecked); recipients of other domains are refused
 * at RCPT TO.
 */
import { createHash, randomBytes } from 'node:crypto';
import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { newId, ulid } from '#shared/domain/ids';
import { inboundKeys } from '#shared/domain/inbound/content-keys';
import { signDkim } from '#shared/lib/dkim/sign';
import { api, newAccount, stack, waitFor, type TestAccount } from './harness/stack';
import { mx, mxTransport, receivedIds, receivingDomain, senderDomain, waitForReceived } from './harness/inbound';
import { SmtpClient } from './harness/smtp';
import { createTenant } from './harness/tenants';
import { uniqueDomain } from './harness/dns';
import { startHttpsReceiver, type HttpsReceiver } from '../support/https-receiver';

const certs = () => ({ certFile: process.env.TEST_WEBHOOK_CERT_FILE!, keyFile: process.env.TEST_WEBHOOK_KEY_FILE! });
const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

describe('inbound mail', () => {
  let account: TestAccount;
  let inbox: Awaited<ReturnType<typeof receivingDomain>>;
  let hooks: HttpsReceiver;

  beforeAll(async () => {
    account = await newAccount({ plan: 'scale', paymentMethod: true, tenants: true });
    inbox = await receivingDomain(account);
    hooks = await startHttpsReceiver(certs());
    expect((await api('POST', '/webhooks', { key: account.key, body: { url: hooks.url, events: ['email.received'] } })).status).toBe(200);
  });
  afterAll(async () => {
    await hooks.close();
  });

  it('stores, records and publishes a message sent with nodemailer, with every field of the spec and ours', async () => {
    const sender = await senderDomain();
    const to = inbox.address('support+ticket-42');
    const info = await mxTransport({
      dkim: { domainName: sender.name, keySelector: sender.selector, privateKey: sender.privateKeyPem },
    }).sendMail({
      envelope: { from: `alice@${sender.name}`, to: [to] },
      from: `Alice <alice@${sender.name}>`,
      to: `Support <${to}>`,
      cc: `carol@${sender.name}`,
      replyTo: `alice.replies@${sender.name}`,
      subject: 'Re: Order 42 ✓',
      text: 'Yes, please ship it.\n\nOn Mon, 2 Nov 2026 at 10:00, Support <support@example.com> wrote:\n> When should we ship?\n',
      html: '<p>Yes, please ship it.</p>',
      inReplyTo: '<q42@example.com>',
      references: ['<q41@example.com>', '<q42@example.com>'],
      messageId: `<reply-42@${sender.name}>`,
      attachments: [{ filename: 'invoice.pdf', content: Buffer.from('%PDF-1.4 tiny'), contentType: 'application/pdf' }],
    });
    expect(info.response).toMatch(/^250 2\.0\.0 Ok: queued as inb_[0-9A-Z]{26}$/);
    const [id] = receivedIds(info.response);

    const email = await waitForReceived(account, id!);
    expect(email).toMatchObject({
      object: 'received_email',
      id,
      status: 'received',
      from: `Alice <alice@${sender.name}>`,
      to: [`Support <${to}>`],
      cc: [`carol@${sender.name}`],
      reply_to: [`alice.replies@${sender.name}`],
      subject: 'Re: Order 42 ✓',
      message_id: `<reply-42@${sender.name}>`,
      in_reply_to: '<q42@example.com>',
      references: ['<q41@example.com>', '<q42@example.com>'],
      mail_from: `alice@${sender.name}`,
      rcpt_to: [to],
      plus_address: 'ticket-42',
      spam_status: 'not_spam',
      auto_submitted: null,
      stripped_text: 'Yes, please ship it.',
      attachment_count: 1,
      tls: true,
      parse_error: null,
      tenant: null,
      html: '<p>Yes, please ship it.</p>',
      raw: { download_url: expect.stringMatching(/^http/), expires_at: expect.any(String) },
    });
    expect(email.text).toContain('When should we ship?');
    expect(email.authentication).toMatchObject({
      spf: { result: 'pass', domain: sender.name },
      dkim: [{ result: 'pass', domain: sender.name, selector: 'mail', aligned: true }],
      dmarc: { result: 'pass', domain: sender.name, policy: 'reject' },
      spam_reasons: [],
    });
    expect(email.attachments).toEqual([
      {
        id: 'att_1',
        filename: 'invoice.pdf',
        content_type: 'application/pdf',
        size: 13,
        content_id: null,
        content_disposition: 'attachment',
        content: Buffer.from('%PDF-1.4 tiny').toString('base64'),
        download_url: null,
        expires_at: null,
      },
    ]);
    expect(email.headers).toEqual(
      expect.arrayContaining([
        { name: 'Subject', value: expect.any(String) },
        { name: 'Received', value: expect.stringContaining('with ESMTPS id') },
      ]),
    );

    // The raw message as stored: the Received field in front, then the message as sent.
    const raw = await fetch(email.raw.download_url);
    expect(raw.status).toBe(200);
    const rawText = await raw.text();
    expect(rawText.startsWith('Received: from sender.example-mail.test ([127.0.0.1])')).toBe(true);
    expect(rawText).toContain(`Message-ID: <reply-42@${sender.name}>`);

    // The webhook: every field of the spec's email.received payload, and ours.
    const [delivery] = await hooks.waitForRequests(1);
    const body = JSON.parse(delivery!.body);
    expect(body.type).toBe('email.received');
    expect(body.data).toEqual({
      email_id: id,
      to: [`Support <${to}>`],
      from: `Alice <alice@${sender.name}>`,
      subject: 'Re: Order 42 ✓',
      status: 'received',
      rcpt_to: [to],
      cc: [`carol@${sender.name}`],
      message_id: `<reply-42@${sender.name}>`,
      in_reply_to: '<q42@example.com>',
      references: ['<q41@example.com>', '<q42@example.com>'],
      spam_status: 'not_spam',
      attachment_count: 1,
      attachments: [{ filename: 'invoice.pdf', content_type: 'application/pdf', size: 13 }],
      received_at: email.received_at,
      mail_from: `alice@${sender.name}`,
      reply_to: [`alice.replies@${sender.name}`],
      plus_address: 'ticket-42',
      auto_submitted: null,
      stripped_text: 'Yes, please ship it.',
      authentication: email.authentication,
      tenant: null,
    });
  });

  it('fails SPF, DKIM and DMARC for a forged message and marks it spam', async () => {
    const real = await senderDomain({ spf: 'v=spf1 ip4:192.0.2.1 -all', dmarc: 'v=DMARC1; p=reject' });
    const forger = await senderDomain();
    // Signed with another key than the one in real's DNS, sent from an address real's SPF does not allow.
    const info = await mxTransport({
      dkim: { domainName: real.name, keySelector: real.selector, privateKey: forger.privateKeyPem },
    }).sendMail({
      envelope: { from: `ceo@${real.name}`, to: [inbox.address('billing')] },
      from: `ceo@${real.name}`,
      to: inbox.address('billing'),
      subject: 'Wire the money',
      text: 'Now.',
    });
    const email = await waitForReceived(account, receivedIds(info.response)[0]!);
    expect(email.authentication.spf).toEqual({ result: 'fail', domain: real.name });
    expect(email.authentication.dkim).toEqual([expect.objectContaining({ result: 'fail', domain: real.name })]);
    expect(email.authentication.dmarc).toEqual({ result: 'fail', domain: real.name, policy: 'reject' });
    expect(email.spam_status).toBe('spam');
    expect(email.authentication.spam_reasons.length).toBeGreaterThan(0);
  });

  it('records a queue message from before the listener checked (no authentication) as unchecked: the worker looks nothing up', async () => {
    // A message that would pass everything, were the worker to check it.
    const sender = await senderDomain();
    const to = inbox.address('legacy');
    const raw = await signDkim({
      raw: Buffer.from(`From: Alice <alice@${sender.name}>\r\nTo: ${to}\r\nSubject: queued before the upgrade\r\n\r\nhello\r\n`),
      domain: sender.name,
      selector: sender.selector,
      privateKeyPem: sender.privateKeyPem,
    });
    const now = Date.now();
    const rawKey = inboundKeys.raw(ulid(now));
    const { info, services } = stack();
    await services.blobs.put(rawKey, raw, 'message/rfc822');
    // The previous listener's queue message: every field but `authentication`.
    const id = newId('inb', now);
    const old = {
      email_id: id,
      account_id: account.id,
      domain_id: inbox.id,
      tenant_id: null,
      tenant: null,
      raw_key: rawKey,
      size: raw.length,
      received_at: new Date(now).toISOString(),
      mail_from: `alice@${sender.name}`,
      rcpt_to: [to],
      remote_address: '127.0.0.1',
      helo: 'sender.example-mail.test',
      tls: true,
    };
    await new SQSClient({ endpoint: info.endpoints.sqs, region: info.region }).send(
      new SendMessageCommand({ QueueUrl: info.env.INBOUND_QUEUE_URL, MessageBody: JSON.stringify(old) }),
    );
    const email = await waitForReceived(account, id);
    expect(email.authentication).toEqual({
      spf: { result: 'temperror', domain: null },
      dkim: [],
      dmarc: { result: 'temperror', domain: null, policy: null },
      spam_reasons: [],
    });
    expect(email).toMatchObject({ spam_status: 'not_spam', subject: 'queued before the upgrade', rcpt_to: [to] });
  });

  it('refuses recipients of domains it does not receive for at RCPT TO, and takes the others', async () => {
    const plain = uniqueDomain();
    expect((await api('POST', '/domains', { key: account.key, body: { name: plain } })).status).toBeLessThan(300);
    const unverified = (await api('POST', '/domains', { key: account.key, body: { name: uniqueDomain(), inbound_enabled: true } })).body
      .domain;
    const { client } = await SmtpClient.connect({ target: mx() });
    expect((await client.command('EHLO relay.example-mail.test')).code).toBe(250);
    const result = await client.transaction(
      'someone@example.org',
      ['x@example.org', `x@inbound.${plain}`, `x@${unverified.inbound_subdomain}`, `x@${inbox.name}`, inbox.address('ok')],
      'Subject: t\r\n\r\nhello\r\n',
    );
    expect(result.mail.code).toBe(250);
    expect(result.rcpt.map((reply) => reply.code)).toEqual([550, 550, 550, 550, 250]);
    expect(result.rcpt[0]!.text).toMatch(/^5\.7\.1 Relay access denied/);
    expect(result.done?.code).toBe(250);
    const email = await waitForReceived(account, receivedIds(result.done!.text)[0]!);
    expect(email.rcpt_to).toEqual([inbox.address('ok')]);
    expect(email.tls).toBe(false);
    await client.quit();
  });

  it('serves large attachments through signed URLs, intact', async () => {
    const big = randomBytes(3 * 1024 * 1024);
    const small = randomBytes(1000);
    const info = await mxTransport().sendMail({
      from: 'files@example.org',
      to: inbox.address('docs'),
      subject: 'Scans',
      text: 'attached',
      attachments: [
        { filename: 'scan.bin', content: big, contentType: 'application/octet-stream' },
        { filename: 'note.bin', content: small, contentType: 'application/octet-stream' },
      ],
    });
    const email = await waitForReceived(account, receivedIds(info.response)[0]!);
    expect(email.attachment_count).toBe(2);
    for (const [attachment, original] of [
      [email.attachments[0], big],
      [email.attachments[1], small],
    ] as const) {
      expect(attachment.content).toBeNull();
      expect(attachment.size).toBe(original.length);
      const download = await fetch(attachment.download_url);
      expect(download.status).toBe(200);
      expect(sha256(Buffer.from(await download.arrayBuffer()))).toBe(sha256(original));
    }
  });

  it('lists received email newest first with cursor pagination and to/from/since filters', async () => {
    const own = await receivingDomain(account);
    const since = new Date().toISOString();
    const ids: string[] = [];
    for (const n of [1, 2, 3]) {
      const info = await mxTransport().sendMail({
        from: `sender${n}@example.org`,
        to: own.address(`list${n}`),
        subject: `list ${n}`,
        text: 'x',
      });
      ids.push(receivedIds(info.response)[0]!);
    }
    await Promise.all(ids.map((id) => waitForReceived(account, id)));
    const seen: string[] = [];
    let cursor: string | null = null;
    await waitFor(async () => {
      const page = await api('GET', `/received-emails?limit=3&since=${encodeURIComponent(since)}`, { key: account.key });
      return page.body.received_emails.length === 3;
    }, 'listing');
    do {
      const page: { body: { received_emails: { id: string; html?: unknown }[]; has_more: boolean; next_cursor: string | null } } =
        await api('GET', `/received-emails?limit=2&since=${encodeURIComponent(since)}${cursor ? `&cursor=${cursor}` : ''}`, {
          key: account.key,
        });
      seen.push(...page.body.received_emails.map((email) => email.id));
      expect(page.body.received_emails.every((email) => email.html === undefined)).toBe(true);
      expect(page.body.has_more).toBe(page.body.next_cursor !== null);
      cursor = page.body.next_cursor;
    } while (cursor);
    expect(seen).toEqual([...ids].reverse());
    const byTo = await api('GET', `/received-emails?to=${encodeURIComponent(own.address('list2'))}`, { key: account.key });
    expect(byTo.body.received_emails.map((email: { id: string }) => email.id)).toEqual([ids[1]]);
    const byFrom = await api('GET', `/received-emails?from=SENDER3@example.org`, { key: account.key });
    expect(byFrom.body.received_emails.map((email: { id: string }) => email.id)).toEqual([ids[2]]);
    const bad = await api('GET', '/received-emails?since=yesterday&limit=0', { key: account.key });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('validation_error');
  });

  it('retries email.received to a failing endpoint, and a failed delivery can be replayed', async () => {
    const other = await newAccount();
    const domain = await receivingDomain(other);
    const hook = await startHttpsReceiver(certs());
    try {
      hook.setResponder(() => ({ status: 500, body: 'broken' }));
      const webhook = (await api('POST', '/webhooks', { key: other.key, body: { url: hook.url, events: ['email.received'] } })).body
        .webhook;
      const info = await mxTransport().sendMail({ from: 'x@example.org', to: domain.address('retry'), subject: 'retry me', text: 'r' });
      const id = receivedIds(info.response)[0]!;
      // 1 try + 5 retries (the test stack's schedule is 0,1,1,1,1 s), one webhook-id throughout.
      const requests = await hook.waitForRequests(6, 30_000);
      expect(new Set(requests.map((request) => request.headers['webhook-id'])).size).toBe(1);
      expect(JSON.parse(requests[0]!.body).data.email_id).toBe(id);
      const failed = await waitFor(async () => {
        const list = await api('GET', `/webhooks/${webhook.id}/deliveries`, { key: other.key });
        return list.body.deliveries?.[0]?.status === 'failed' ? list.body.deliveries[0] : undefined;
      }, 'delivery failed');
      expect(failed.event_type).toBe('email.received');
      hook.setResponder(() => ({ status: 200 }));
      expect((await api('POST', `/webhooks/${webhook.id}/deliveries/${failed.id}/replay`, { key: other.key })).status).toBe(202);
      await waitFor(
        async () =>
          (await api('GET', `/webhooks/${webhook.id}/deliveries/${failed.id}`, { key: other.key })).body.delivery?.status === 'succeeded',
        'replayed',
      );
      expect(JSON.parse(hook.requests.at(-1)!.body).data.email_id).toBe(id);
    } finally {
      await hook.close();
    }
  });

  it('answers 403 to a key limited to a tenant and 404 to another account', async () => {
    const tenant = await createTenant(account, {}, 'inbound');
    const key = (
      await api('POST', '/api-keys', { key: account.key, body: { name: 'tenant key', scopes: ['full'], tenant: tenant.external_id } })
    ).body.secret as string;
    const info = await mxTransport().sendMail({ from: 'x@example.org', to: inbox.address('private'), subject: 'p', text: 'p' });
    const id = receivedIds(info.response)[0]!;
    await waitForReceived(account, id);
    for (const path of ['/received-emails', `/received-emails/${id}`]) {
      const response = await api('GET', path, { key });
      expect(response.status).toBe(403);
      expect(response.body.error.code).toBe('forbidden');
    }
    const other = await newAccount();
    expect((await api('GET', `/received-emails/${id}`, { key: other.key })).status).toBe(404);
    expect((await api('GET', '/received-emails/inb_nope', { key: account.key })).status).toBe(404);
  });
});
