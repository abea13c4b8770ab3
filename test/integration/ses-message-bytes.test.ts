/**
 * The product on an SES that refuses and changes message bytes as Amazon SES does (docs/local-cloud/ses.md
 * "Content rules", "Message-ID and Date", "Tracking", "DKIM signing"):
 * - files and headers SES would refuse are refused at both doors, naming the file or header (400 / 550 5.6.0);
 * - SES's own open/click tracking is never switched on: a delivered HTML email carries only our tracking,
 *   none when the domain's is off;
 * - the Message-ID recipients see (SES's) is on the email record and in email.sent;
 * - the delivered message carries one DKIM signature, SES's with the domain's key, and it verifies.
 */
import { simpleParser } from 'mailparser';
import MailComposer from 'nodemailer/lib/mail-composer';
import { CONFIGURATION_SET } from '#infra/definitions';
import { verifyDkim } from '../support/mailauth-dkim';
import { localResolver } from './harness/dns';
import { verifiedDomain, type VerifiedDomain } from './harness/domains';
import { createSmtpCredential, transport, type SmtpCredential } from './harness/smtp';
import { api, emailOf, newAccount, sesMessagesFor, stack, waitFor, waitForStatus, type TestAccount } from './harness/stack';
import { webhookInbox } from './harness/webhook-inbox';

const PDF = Buffer.from('%PDF-1.4\n%%EOF\n', 'latin1').toString('base64');
const HTML = '<html><body><p>Hi <a href="https://shop.example/offer">Offer</a></p></body></html>';

let account: TestAccount;
let plain: VerifiedDomain;
let credential: SmtpCredential;
beforeAll(async () => {
  account = await newAccount({ plan: 'pro', paymentMethod: true });
  plain = await verifiedDomain(account);
  credential = await createSmtpCredential(account);
});

async function relayRefusal(raw: Buffer): Promise<{ responseCode?: number; response?: string }> {
  const error = await transport(credential.password)
    .sendMail({ envelope: { from: `a@${plain.name}`, to: ['reader@example.org'] }, raw })
    .then(
      () => null,
      (err: { responseCode?: number; response?: string }) => err,
    );
  expect(error).not.toBeNull();
  return error!;
}

describe('what SES refuses is refused at our doors, naming the file or header', () => {
  it.each(['cert.cer', 'setup.MSI', 'run.ps1', 'shortcut.lnk', 'link.url', 'scratch.tmp', 'a:b.pdf', 'why?.pdf', 'x|y.pdf'])(
    'POST /emails: %s is a 400 naming it',
    async (filename) => {
      const response = await api('POST', '/emails', {
        key: account.key,
        body: { from: `a@${plain.name}`, to: 'reader@example.org', subject: 's', text: 't', attachments: [{ filename, data: PDF }] },
      });
      expect(response.status).toBe(400);
      expect(response.body.error.code).toBe('validation_error');
      expect(response.body.error.details.fields).toEqual([
        { field: 'attachments.0.filename', message: expect.stringContaining(`"${filename}"`) },
      ]);
    },
  );

  it('POST /emails: a header SES allows once, given twice in different cases, is a 400 naming it', async () => {
    const response = await api('POST', '/emails', {
      key: account.key,
      body: {
        from: `a@${plain.name}`,
        to: 'reader@example.org',
        subject: 's',
        text: 't',
        headers: { References: '<a@example.org>', references: '<b@example.org>' },
      },
    });
    expect(response.status).toBe(400);
    expect(JSON.stringify(response.body.error)).toMatch(/references.*once/i);
  });

  it('the relay: a file SES refuses is a 550 5.6.0 naming it', async () => {
    for (const filename of ['cert.cer', 'a:b.pdf']) {
      const raw = await new MailComposer({
        from: `a@${plain.name}`,
        to: 'reader@example.org',
        subject: 'file',
        text: 'see attached',
        attachments: [{ filename, content: Buffer.from('x') }],
      })
        .compile()
        .build();
      const refusal = await relayRefusal(raw);
      expect(refusal.responseCode).toBe(550);
      expect(refusal.response).toContain('5.6.0');
      expect(refusal.response).toContain(filename);
    }
  });

  it('the relay: a field SES allows once, given twice, is a 550 5.6.0 naming it', async () => {
    const raw = Buffer.from(
      [`From: a@${plain.name}`, 'To: reader@example.org', 'Subject: one', 'subject: two', 'Comments: a', '', 'x', ''].join('\r\n'),
    );
    const refusal = await relayRefusal(raw);
    expect(refusal.responseCode).toBe(550);
    expect(refusal.response).toMatch(/5\.6\.0 .*subject field is given more than once/i);
  });
});

describe("SES's own tracking stays off: the only tracking is ours", () => {
  it('subscribes no OPEN or CLICK events', () => {
    expect(CONFIGURATION_SET.matchingEventTypes).not.toContain('OPEN');
    expect(CONFIGURATION_SET.matchingEventTypes).not.toContain('CLICK');
  });

  it('a domain without tracking: the delivered HTML is as sent (no pixel, links untouched)', async () => {
    const sent = await api('POST', '/emails', {
      key: account.key,
      body: { from: `a@${plain.name}`, to: 'reader@example.org', subject: 'untracked', html: HTML },
    });
    expect(sent.status).toBe(200);
    await waitForStatus(account, sent.body.id, 'delivered');
    const [message] = await sesMessagesFor(sent.body.id);
    const html = (await simpleParser(Buffer.from(message!.raw_base64, 'base64'))).html as string;
    expect(html).toContain('href="https://shop.example/offer"');
    expect(html).not.toContain('<img');
    expect(message!.raw).not.toContain('awstrack.me');
  });

  it('a domain with tracking: our pixel and link only', async () => {
    const tracked = await verifiedDomain(account, { open_tracking: true, click_tracking: true });
    const sent = await api('POST', '/emails', {
      key: account.key,
      body: { from: `a@${tracked.name}`, to: 'reader@example.org', subject: 'tracked', html: HTML },
    });
    await waitForStatus(account, sent.body.id, 'delivered');
    const [message] = await sesMessagesFor(sent.body.id);
    const html = (await simpleParser(Buffer.from(message!.raw_base64, 'base64'))).html as string;
    const base = stack().info.env.LINKS_BASE_URL!;
    expect([...html.matchAll(/<img /g)]).toHaveLength(1);
    expect(html).toContain(`src="${base}/t/open/`);
    expect(html).toContain(`href="${base}/t/click/`);
    expect(message!.raw).not.toContain('awstrack.me');
  });
});

describe("the Message-ID recipients see is SES's, exposed; one DKIM signature, SES's, verifies", () => {
  it.each(['api', 'relay'] as const)('%s: the record and email.sent carry the delivered Message-ID', async (door) => {
    const received = await webhookInbox(account, ['email.sent']);
    let id: string;
    if (door === 'api') {
      const sent = await api('POST', '/emails', {
        key: account.key,
        body: { from: `a@${plain.name}`, to: 'reader@example.org', subject: 'ids', html: HTML },
      });
      id = sent.body.id;
    } else {
      const info = await transport(credential.password).sendMail({
        from: `a@${plain.name}`,
        to: 'reader@example.org',
        subject: 'ids',
        html: HTML,
        messageId: '<client-own@example.org>',
      });
      id = /queued as (msg_[0-9A-Z]{26})/.exec(info.response)![1]!;
    }
    await waitForStatus(account, id, 'delivered');
    // SES's delivery event can be recorded before the send worker's own write of what SendEmail answered (the
    // worker's write then adds the Message-ID to the delivered record): both are in the record eventually.
    const email = await waitFor(async () => {
      const current = await emailOf(account, id);
      return current.message_id ? current : undefined;
    }, `${id}'s Message-ID recorded`);
    const [message] = await sesMessagesFor(id);
    const bytes = Buffer.from(message!.raw_base64, 'base64');
    const delivered = await simpleParser(bytes);
    expect(email.message_id).toMatch(/^<0[0-9a-f]{15}-[0-9a-f-]{36}-000000@email\.amazonses\.com>$/);
    expect(delivered.messageId).toBe(email.message_id);
    expect(bytes.toString('latin1')).not.toContain('client-own@example.org');

    const sentEvent = await waitFor(
      async () => (await received()).find((event) => event.data.email_id === id),
      `email.sent of ${id}`,
      30_000,
    );
    expect(sentEvent.data.message_id).toBe(email.message_id);

    const signatures = bytes.toString('latin1').match(/^DKIM-Signature:/gim) ?? [];
    expect(signatures).toHaveLength(1);
    const resolver = localResolver();
    const results = await verifyDkim(bytes, (name) => resolver.resolveTxt(name));
    expect(results).toEqual([expect.objectContaining({ status: 'pass', domain: plain.name })]);
  });
});
