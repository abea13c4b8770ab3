/**
 * Content redaction (docs/redaction.md) on the running stack: a send with `store_content: false`, and one
 * from an account that keeps no content (PATCH /account; its request's `store_content: true` does not turn
 * storing back on), are delivered with their body and attachment (the local SES mailbox has them), then the
 * API and the dashboard show the content as not kept, a resend is refused (422), and a scan of the table
 * and of the bucket (the test may scan; the product never does) finds no byte of the body, the attachment
 * or the subject. A plain send alongside keeps its content. PATCH /account refuses a bad store_content.
 * Inbound: mail to a domain with `inbound_store_content: false` is recorded as metadata only, email.received
 * carries no content, and nothing of the message stays in the bucket or the table; the switch is validated.
 */
import { randomUUID } from 'node:crypto';
import { dashboardRequest, newDashboardUser, signIn } from './harness/dashboard';
import { verifiedDomain } from './harness/domains';
import { mxTransport, receivedIds, receivingDomain, waitForReceived } from './harness/inbound';
import { webhookInbox } from './harness/webhook-inbox';
import { itemsNaming, objectsNaming } from './harness/scan';
import { createSmtpCredential, queuedId, transport } from './harness/smtp';
import { INLINE_MIME_LIMIT } from '#shared/usecases/send/content-keys';
import { useOwnStack } from './harness/own-stack';
import { api, newAccount, sesMessagesFor, waitFor, waitForStatus, type TestAccount } from './harness/stack';

jest.setTimeout(180_000);

/** A send whose body (over the inline limit: it goes to the bucket), attachment and subject each carry a unique marker. */
function marked(from: string, extra: Record<string, unknown> = {}) {
  const marker = randomUUID().replace(/-/g, '');
  const body = `body${marker}`;
  const attachment = `attachment${marker}`;
  const subject = `subject${marker}`;
  return {
    marker,
    body,
    attachment,
    subject,
    request: {
      from,
      to: 'success@simulator.amazonses.com',
      subject,
      html: `<p>${body}</p><p>${'filler '.repeat(600)}</p>`,
      attachments: [{ filename: 'notes.txt', content: Buffer.from(`${attachment}\n`).toString('base64') }],
      tags: [{ name: 'kind', value: 'redaction' }],
      ...extra,
    },
  };
}

/**
 * The email once the send worker dropped its content (its subject gone): SES's Delivery event may be recorded
 * before the worker's own write of `sent` and the drop that follows it.
 */
async function waitForDropped(account: TestAccount, id: string) {
  return waitFor(
    async () => {
      const { body } = await api('GET', `/emails/${id}`, { key: account.key });
      if (body.email?.subject !== '') throw new Error(`email ${id} still has its subject (${body.email?.status})`);
      return body.email;
    },
    `the content of ${id} to be dropped`,
    20_000,
  );
}

async function dashboardPage(account: TestAccount, path: string) {
  const user = await newDashboardUser(account);
  const session = await signIn(user.email, user.password);
  return dashboardRequest('GET', path, { cookie: session.cookie });
}

describe('content redaction', () => {
  // A stack of its own: its whole-store scans read only this file's items and objects (on the shared stack
  // each scan read every other file's: 22,000 items and 7-8 s a scan late in the suite).
  useOwnStack('mailservice-redaction-');
  let keeper: TestAccount;
  let from: string;

  beforeAll(async () => {
    keeper = await newAccount({ plan: 'pro', paymentMethod: true });
    from = `hello@${(await verifiedDomain(keeper)).name}`;
  });

  it('delivers a store_content: false send with its content, then keeps none of it; a plain send keeps its content', async () => {
    const redacted = marked(from, { store_content: false });
    const plain = marked(from);
    const [sentRedacted, sentPlain] = await Promise.all([
      api('POST', '/emails', { key: keeper.key, body: redacted.request }),
      api('POST', '/emails', { key: keeper.key, body: plain.request }),
    ]);
    expect(sentRedacted.status).toBe(200);
    expect(sentPlain.status).toBe(200);
    const redactedId = sentRedacted.body.id as string;
    const plainId = sentPlain.body.id as string;
    await waitForStatus(keeper, redactedId, 'delivered');
    const email = await waitForDropped(keeper, redactedId);
    await waitForStatus(keeper, plainId, 'delivered');

    // Delivered whole: SES got the body, the attachment (base64 in the message) and the subject.
    const [message] = await sesMessagesFor(redactedId);
    expect(message!.raw).toContain(redacted.body);
    expect(message!.raw).toContain(redacted.subject);
    expect(message!.raw.replace(/\r?\n/g, '')).toContain(Buffer.from(`${redacted.attachment}\n`).toString('base64'));

    // The record: metadata kept, subject dropped, the attachment listed by name and size; it says so.
    expect(email.content).toBe('not_kept');
    expect(email.subject).toBe('');
    expect(email.to).toEqual(['success@simulator.amazonses.com']);
    expect(email.tags).toEqual([{ name: 'kind', value: 'redaction' }]);
    expect(email.attachments).toEqual([
      { filename: 'notes.txt', content_type: 'text/plain', size: redacted.attachment.length + 1, content_id: null },
    ]);

    // The dashboard says so, and shows none of it.
    const redactedPage = await dashboardPage(keeper, `/dashboard/emails/${redactedId}`);
    expect(redactedPage.status).toBe(200);
    expect(redactedPage.text).toContain('Content not kept');
    expect(redactedPage.text).not.toContain(redacted.marker);
    expect(redactedPage.text).not.toContain('title="Email preview"');
    expect((await api('GET', `/emails/${plainId}`, { key: keeper.key })).body.email.content).toBe('kept');
    const plainPage = await dashboardPage(keeper, `/dashboard/emails/${plainId}`);
    expect(plainPage.text).toContain(plain.subject);
    expect(plainPage.text).not.toContain('Content not kept');

    // Nothing of it left: not in the table, not in the bucket. The plain send's content is still there.
    expect(await itemsNaming(redacted.marker)).toEqual([]);
    expect(await objectsNaming([redacted.body, redacted.attachment, redacted.subject])).toEqual([]);
    expect((await itemsNaming(plain.subject)).length).toBeGreaterThan(0);
    expect((await objectsNaming([plain.body])).length).toBe(1);
    expect((await objectsNaming([plain.attachment])).length).toBe(1);

    // A redacted email cannot be resent (its content is gone); the plain one can.
    const resend = await api('POST', `/emails/${redactedId}/resend`, { key: keeper.key });
    expect(resend.status).toBe(422);
    expect(resend.body.error.message).toContain('store_content: false');
    expect((await api('POST', `/emails/${plainId}/resend`, { key: keeper.key })).status).toBe(200);
  });

  it("follows the account's store_content: false, which a send's store_content: true cannot turn back on", async () => {
    const account = await newAccount({ plan: 'pro', paymentMethod: true });
    const accountFrom = `hello@${(await verifiedDomain(account)).name}`;
    expect((await api('GET', '/account', { key: account.key })).body.store_content).toBe(true);
    const changed = await api('PATCH', '/account', { key: account.key, body: { store_content: false } });
    expect(changed.status).toBe(200);
    expect(changed.body.store_content).toBe(false);
    expect((await api('GET', '/account', { key: account.key })).body.store_content).toBe(false);

    const send = marked(accountFrom, { store_content: true });
    // And through the SMTP relay: a short message, kept in the email item until sent (no object), then dropped from it.
    const credential = await createSmtpCredential(account);
    const relayed = `relayed${send.marker}`;
    const raw = Buffer.from(
      `From: ${accountFrom}\r\nTo: success@simulator.amazonses.com\r\nSubject: ${relayed}\r\n\r\nbody of ${relayed}\r\n`,
    );
    expect(raw.length).toBeLessThanOrEqual(INLINE_MIME_LIMIT);
    const [sent, info] = await Promise.all([
      api('POST', '/emails', { key: account.key, body: send.request }),
      transport(credential.password).sendMail({ envelope: { from: accountFrom, to: ['success@simulator.amazonses.com'] }, raw }),
    ]);
    expect(sent.status).toBe(200);
    const relayId = queuedId(info.response);
    await Promise.all([waitForStatus(account, sent.body.id, 'delivered'), waitForStatus(account, relayId, 'delivered')]);
    const [email, relayedEmail] = await Promise.all([waitForDropped(account, sent.body.id), waitForDropped(account, relayId)]);
    const [[message], [relayedMessage]] = await Promise.all([sesMessagesFor(sent.body.id), sesMessagesFor(relayId)]);
    expect(message!.raw).toContain(send.body);
    expect(relayedMessage!.raw).toContain(`body of ${relayed}`);
    expect([email.subject, relayedEmail.subject]).toEqual(['', '']);
    // One scan of each store for both (the relayed message's marker holds the send's).
    expect(await itemsNaming(send.marker)).toEqual([]);
    expect(await objectsNaming([send.body, send.attachment, send.subject, relayed])).toEqual([]);
  });

  it('refuses a bad store_content with a 400 naming it', async () => {
    const account = await newAccount();
    for (const body of [{ store_content: 'no' }, { store_content: null }, { store_content: 0 }]) {
      const refused = await api('PATCH', '/account', { key: account.key, body });
      expect(refused.status).toBe(400);
      expect(refused.text).toContain('store_content');
    }
    const send = await api('POST', '/emails', {
      key: account.key,
      body: { from: 'a@example.com', to: 'b@example.com', subject: 's', text: 't', store_content: 'off' },
    });
    expect(send.status).toBe(400);
    expect(send.text).toContain('store_content');
    expect((await api('GET', '/account', { key: account.key })).body.store_content).toBe(true);
  });

  it('records mail to a domain with inbound_store_content: false as metadata only, and keeps nothing of the message', async () => {
    const account = await newAccount({ plan: 'pro', paymentMethod: true });
    const inbox = await receivingDomain(account);
    const plainInbox = await receivingDomain(account);
    for (const body of [{ inbound_store_content: 'no' }, { inbound_store_content: null }]) {
      const refused = await api('PATCH', `/domains/${inbox.id}`, { key: account.key, body });
      expect(refused.status).toBe(400);
      expect(refused.text).toContain('inbound_store_content');
    }
    expect((await api('GET', `/domains/${inbox.id}`, { key: account.key })).body.domain.inbound_store_content).toBe(true);
    const switched = await api('PATCH', `/domains/${inbox.id}`, { key: account.key, body: { inbound_store_content: false } });
    expect(switched.status).toBe(200);
    expect(switched.body.domain.inbound_store_content).toBe(false);
    const hooks = await webhookInbox(account, ['email.received']);

    const marker = randomUUID().replace(/-/g, '');
    const mail = (to: string, tag: string) => ({
      from: 'sender@example.org',
      to,
      subject: `subject${tag}${marker}`,
      text: `body${tag}${marker}`,
      attachments: [{ filename: 'notes.txt', content: `attachment${tag}${marker}` }],
    });
    const [redactedId] = receivedIds((await mxTransport().sendMail(mail(inbox.address('support'), 'r'))).response);
    const [plainId] = receivedIds((await mxTransport().sendMail(mail(plainInbox.address('support'), 'p'))).response);
    const received = await waitForReceived(account, redactedId!);
    const plain = await waitForReceived(account, plainId!);

    // The metadata stays; no subject, bodies, headers nor attachments.
    expect(received.from).toContain('sender@example.org');
    expect(received.to).toEqual([inbox.address('support')]);
    expect(received.attachment_count).toBe(1);
    expect(received.subject).toBe('');
    expect([received.html, received.text, received.stripped_text]).toEqual([null, null, null]);
    expect(received.headers).toEqual([]);
    expect(received.attachments).toEqual([]);
    // It says so, and offers no link to the deleted raw message; the list says it too.
    expect(received.content).toBe('not_kept');
    expect(received.raw).toBeNull();
    const listed = (await api('GET', '/received-emails', { key: account.key })).body.received_emails as { id: string; content: string }[];
    expect(listed.find((item) => item.id === redactedId)!.content).toBe('not_kept');
    expect(listed.find((item) => item.id === plainId)!.content).toBe('kept');
    // The dashboard's page says "Content not kept" and shows no message nor raw download.
    const page = await dashboardPage(account, `/dashboard/received/${redactedId}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('Content not kept');
    expect(page.text).not.toContain('Download the raw message');
    expect(page.text).not.toContain(marker);
    // The other domain keeps its mail's content.
    expect(plain.content).toBe('kept');
    expect(plain.raw.download_url).toMatch(/^http/);
    expect(plain.subject).toBe(`subjectp${marker}`);
    expect(plain.text).toContain(`bodyp${marker}`);
    const plainPage = await dashboardPage(account, `/dashboard/received/${plainId}`);
    expect(plainPage.text).toContain('Download the raw message');
    expect(plainPage.text).not.toContain('Content not kept');

    // email.received was sent, without content.
    const event = await waitFor(
      async () => (await hooks()).find((hook) => hook.data.email_id === redactedId),
      'email.received of the redacted email',
    );
    expect(JSON.stringify(event)).not.toContain(marker);
    expect(event.data.subject).toBe('');

    // Nothing of the message in the bucket (the raw message too) nor the table.
    await waitFor(
      async () => ((await objectsNaming([`r${marker}`])).length === 0 ? true : undefined),
      'the raw message to be deleted',
      20_000,
    );
    expect(await itemsNaming(`r${marker}`)).toEqual([]);
    expect((await objectsNaming([`bodyp${marker}`])).length).toBeGreaterThan(0);
  });
});
