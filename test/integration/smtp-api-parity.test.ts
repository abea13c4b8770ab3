/**
 * The same content sent once through POST /emails and once through the SMTP relay (nodemailer) gives the
 * same record: HTML and text, an inline image referenced as cid: in the HTML, a regular PDF attachment,
 * cc, bcc, reply_to, tags and headers of the sender's (one non-ASCII). Compared field by field:
 *  - the public record (GET /emails/{id}), attachments included, once both are delivered;
 *  - the stored email's other fields (headers, category, account, tenant), and its attachments but for
 *    where their bytes are (their own blobs for the API, the message itself for the relay);
 *  - what the dashboard's email page shows of the content (the HTML and text bodies).
 * And the relayed email's resend lists the same attachments.
 *
 * Excluded, each because it differs by nature between two sends: the ids, the times (created_at,
 * sent_at, delivered_at), the provider's message id, the attachments' blob keys, and the header block the
 * dashboard shows (composed by the service for an API send, the client's own for a relayed one).
 */
import { apiKeySecretHash, authenticateKeyHash } from '#shared/usecases/access/authenticate';
import { getEmailContent } from '#shared/usecases/emails/email-content';
import { verifiedDomain } from './harness/domains';
import { createSmtpCredential, queuedId, transport, type SmtpCredential } from './harness/smtp';
import { api, newAccount, stack, uniqueEmail, waitForStatus, type TestAccount } from './harness/stack';

/** A 1x1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
/** Enough of a PDF for a mail client: its bytes are what matter here. */
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n', 'latin1');

/** The record without what differs by nature between two sends: the id and the times. */
function comparableRecord(email: Record<string, unknown>) {
  const { id: _id, created_at: _created, sent_at: _sent, delivered_at: _delivered, message_id: _messageId, ...rest } = email;
  return rest;
}

describe('an SMTP relay send and an API send of the same content', () => {
  let account: TestAccount;
  let domain: string;
  let credential: SmtpCredential;

  beforeAll(async () => {
    account = await newAccount({ plan: 'scale', paymentMethod: true });
    domain = (await verifiedDomain(account)).name;
    credential = await createSmtpCredential(account);
  });

  it('give the same record, attachments (inline and regular) included', async () => {
    const [ann, bob, carol] = [uniqueEmail('ann'), uniqueEmail('bob'), uniqueEmail('carol')];
    const content = {
      from: `Acme <billing@${domain}>`,
      to: `Ann <${ann}>`,
      cc: bob,
      bcc: carol,
      reply_to: `help@${domain}`,
      subject: 'Invoice 1042 — thank you',
      html: '<p>Hello Ann,</p><p><img src="cid:logo@acme" alt="Acme"></p><p>Your invoice is attached.</p>',
      text: 'Hello Ann,\nYour invoice is attached.',
    };
    const headers = { 'X-Campaign': 'invoices', 'X-Note': 'café crème' };

    const viaApi = await api('POST', '/emails', {
      key: account.key,
      body: {
        ...content,
        headers,
        tags: [{ name: 'kind', value: 'invoice' }],
        attachments: [
          { filename: 'logo.png', content: PNG.toString('base64'), content_id: 'logo@acme' },
          { filename: 'invoice-1042.pdf', content: PDF.toString('base64') },
        ],
      },
    });
    expect(viaApi.status).toBe(200);

    const { reply_to: replyTo, ...sameNames } = content;
    const info = await transport(credential.password).sendMail({
      ...sameNames,
      replyTo,
      headers: { ...headers, 'X-Service-Tags': 'kind=invoice' },
      attachments: [
        { filename: 'logo.png', content: PNG, cid: 'logo@acme' },
        { filename: 'invoice-1042.pdf', content: PDF },
      ],
    });
    const relayedId = queuedId(info.response);

    // The public records, once both are delivered.
    const [apiEmail, relayedEmail] = await Promise.all([
      waitForStatus(account, viaApi.body.id, 'delivered'),
      waitForStatus(account, relayedId, 'delivered'),
    ]);
    expect(comparableRecord(relayedEmail)).toEqual(comparableRecord(apiEmail));
    expect(relayedEmail.attachments).toEqual([
      { filename: 'logo.png', content_type: 'image/png', size: PNG.length, content_id: 'logo@acme' },
      { filename: 'invoice-1042.pdf', content_type: 'application/pdf', size: PDF.length, content_id: null },
    ]);
    expect(relayedEmail).toMatchObject({
      from: content.from,
      to: [content.to],
      cc: [bob],
      bcc: [carol],
      reply_to: [content.reply_to],
      subject: content.subject,
      tags: [{ name: 'kind', value: 'invoice' }],
    });

    // The stored emails: the fields GET does not show, and the attachments but for where their bytes are.
    const { services } = stack();
    const [apiStored, relayedStored] = await Promise.all([services.emails.get(viaApi.body.id), services.emails.get(relayedId)]);
    const comparableStored = (email: NonNullable<typeof apiStored>['email']) => {
      const {
        id: _id,
        created_at: _created,
        sent_at: _sent,
        delivered_at: _delivered,
        provider_message_id: _provider,
        message_id: _messageId,
        attachments,
        ...rest
      } = email;
      return { ...rest, attachments: (attachments ?? []).map(({ blob_key: _where, ...metadata }) => metadata) };
    };
    expect(comparableStored(relayedStored!.email)).toEqual(comparableStored(apiStored!.email));
    expect(relayedStored!.email.headers).toEqual(headers);

    // The content the dashboard's email page shows.
    const principal = await authenticateKeyHash(services, apiKeySecretHash(account.key));
    const [apiContent, relayedContent] = await Promise.all([
      getEmailContent(services, principal, viaApi.body.id),
      getEmailContent(services, principal, relayedId),
    ]);
    expect({ html: relayedContent.html, text: relayedContent.text }).toEqual({ html: apiContent.html, text: apiContent.text });
    expect(relayedContent.html).toBe(content.html);
    expect(comparableRecord(relayedContent.email)).toEqual(comparableRecord(apiContent.email));

    // A resend of the relayed email is the same message again: its record lists the same attachments
    // (an API send's resend carries none: docs/smtp.md, "The record").
    const resent = await api('POST', `/emails/${relayedId}/resend`, { key: account.key });
    expect(resent.status).toBe(200);
    expect((await api('GET', `/emails/${resent.body.id}`, { key: account.key })).body.email.attachments).toEqual(relayedEmail.attachments);
  });
});
