/**
 * Erasure finds every copy (docs/erasure.md, "What is removed"): one person's address is named in each way
 * a record can name it, and nowhere else than in those records: only in Reply-To of a sent email (a contact
 * form relaying `to: support@`, `reply_to: visitor@`), only in Cc of another, only in Bcc of a third, only
 * in an encoded Reply-To of one sent through the SMTP relay (its raw message kept); only in the data of an
 * automation event (a run); in
 * From, in Cc and in Reply-To (with an encoded display name) of three emails received at the MX; in the
 * webhook deliveries of those events; and in an account export made before the erasure (and a second
 * one turned into an export of an older release, whose addresses were never indexed). After the
 * erasure, a scan of the whole table and of every bucket finds the address in no case and no encoding
 * (plain, URL-encoded, quoted-printable, base64 at every alignment); the erasure's own record holds its
 * hash only. The report counts each kind; the export is gone (404); emails that did not name the person
 * are untouched.
 */
import { randomUUID } from 'node:crypto';
import { verifiedDomain } from './harness/domains';
import { mxTransport, receivedIds, receivingDomain, waitForReceived } from './harness/inbound';
import { BatchWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { itemsNaming, objectsNaming, tracesOf } from './harness/scan';
import { useOwnStack } from './harness/own-stack';
import { api, newAccount, stack, waitFor, waitForStatus, type TestAccount } from './harness/stack';
import { documentClient } from './harness/usage';
import { createSmtpCredential, queuedId, transport } from './harness/smtp';
import { webhookInbox } from './harness/webhook-inbox';

jest.setTimeout(180_000);

/** An export as an older release left it: without the mark of its indexed addresses, and without their references. */
async function asExportOfBefore(accountId: string, exportId: string): Promise<void> {
  const client = documentClient();
  const table = stack().info.env.TABLE_NAME as string;
  const head = { PK: `EXPORT#${accountId}#${exportId}`, SK: 'HEAD' };
  await client.send(new UpdateCommand({ TableName: table, Key: head, UpdateExpression: 'REMOVE address_refs' }));
  const items = await itemsNaming(`EXPORT#${head.PK}#HEAD`);
  expect(items.length).toBeGreaterThan(0);
  expect(items.length).toBeLessThanOrEqual(25);
  await client.send(
    new BatchWriteCommand({ RequestItems: { [table]: items.map((item) => ({ DeleteRequest: { Key: { PK: item.PK, SK: item.SK } } })) } }),
  );
  client.destroy();
}

async function send(account: TestAccount, body: Record<string, unknown>): Promise<string> {
  const response = await api('POST', '/emails', { key: account.key, body });
  expect(response.status).toBe(200);
  return response.body.id as string;
}

describe('erasure finds every copy', () => {
  // A stack of its own: its whole-store scans read only this file's items and objects (on the shared stack
  // each scan read every other file's: 22,000 items and 7-8 s a scan late in the suite).
  useOwnStack('mailservice-erasure-copies-');
  it('removes the person from Reply-To, Cc and Bcc of sent emails, From, Cc and Reply-To of received ones, their webhook deliveries and an earlier export: nothing left in any case or encoding', async () => {
    const owner = await newAccount({ plan: 'scale', paymentMethod: true });
    const domain = await verifiedDomain(owner);
    const from = `hello@${domain.name}`;
    const tag = randomUUID().slice(0, 8);
    // Mixed case on purpose; a simulator address so that Cc and Bcc are delivered.
    const person = `Success+Visitor${tag}@Simulator.AmazonSES.com`;
    const deliveries = await webhookInbox(owner, ['email.sent', 'email.delivered', 'email.received']);

    // Sent: the person only in Reply-To (a contact form), only in Cc, only in Bcc; and one that never names them.
    const replyTo = await send(owner, {
      from,
      to: 'success@simulator.amazonses.com',
      reply_to: `Visitor <${person}>`,
      subject: 'Contact form',
      text: 'A question from the site',
    });
    const cc = await send(owner, { from, to: 'success@simulator.amazonses.com', cc: [person.toLowerCase()], subject: 'cc', text: 'hi' });
    const bcc = await send(owner, { from, to: 'success@simulator.amazonses.com', bcc: [person.toUpperCase()], subject: 'bcc', text: 'hi' });
    const unrelated = await send(owner, {
      from,
      to: 'success@simulator.amazonses.com',
      reply_to: 'someone-else@example.org',
      subject: 'other',
      text: 'hi',
    });
    // Through the SMTP relay (its raw message kept in the bucket), the person only in an encoded Reply-To.
    const credential = await createSmtpCredential(owner);
    const relayed = queuedId(
      (
        await transport(credential.password).sendMail({
          from,
          to: 'success@simulator.amazonses.com',
          replyTo: { name: 'Vísitor', address: person },
          subject: 'relayed',
          text: 'hi',
        })
      ).response,
    );
    for (const id of [replyTo, cc, bcc, unrelated, relayed]) await waitForStatus(owner, id, 'delivered');

    // An automation run whose event names the person only in its data.
    const automation = await api('POST', '/automations', {
      key: owner.key,
      body: {
        name: 'referrals',
        status: 'active',
        trigger: { event: 'user.referred' },
        steps: [{ key: 'wait', type: 'wait_for_event', event: 'user.verified', timeout: '3 days' }],
      },
    });
    expect(automation.status).toBeLessThan(300);
    expect(
      (await api('POST', '/events', { key: owner.key, body: { name: 'user.referred', user_id: 'u1', data: { referrer: person } } })).status,
    ).toBeLessThan(300);
    await waitFor(
      async () =>
        (await api('GET', `/automations/${automation.body.automation.id}/runs`, { key: owner.key })).body.runs?.length ? true : undefined,
      'the run',
    );

    // Received at the MX: the person in From, in Cc, in Reply-To (an encoded-word display name); the envelope names only the sender and the inbox.
    const inbox = await receivingDomain(owner);
    const support = inbox.address('support');
    const stranger = `stranger-${tag}@example.net`;
    const mails = [
      { from: person, to: support, subject: 'from the person', text: 'hello', envelope: { from: person, to: [support] } },
      {
        from: stranger,
        to: support,
        cc: `"Visitor" <${person.toLowerCase()}>`,
        subject: 'the person in copy',
        text: 'hello',
        envelope: { from: stranger, to: [support] },
      },
      {
        from: stranger,
        to: support,
        replyTo: { name: 'Vísitor Ünïcode', address: person },
        subject: 'answer the person',
        text: 'hello',
        envelope: { from: stranger, to: [support] },
      },
      { from: stranger, to: support, subject: 'unrelated', text: 'hello', envelope: { from: stranger, to: [support] } },
    ];
    const received: string[] = [];
    for (const mail of mails) {
      const info = await mxTransport().sendMail(mail);
      const [id] = receivedIds(info.response);
      await waitForReceived(owner, id!);
      received.push(id!);
    }
    const unrelatedReceived = received.pop()!;

    // The webhook deliveries naming the person: every email.received of theirs, email.sent and .delivered of the Cc email.
    await waitFor(
      async () => {
        const naming = (await deliveries()).filter((hook) => JSON.stringify(hook).toLowerCase().includes(person.toLowerCase()));
        return naming.length >= 5 ? naming : undefined;
      },
      'the webhook deliveries naming the person',
      40_000,
    );

    // An export made before the erasure names them (its emails and received emails files).
    const started = await api('POST', '/exports', { key: owner.key });
    expect(started.status).toBe(201);
    let exported = started.body.export;
    while (exported.status === 'running') exported = (await api('GET', `/exports/${exported.id}`, { key: owner.key })).body.export;
    expect(await objectsNaming(person, `exports/${owner.id}/${exported.id}/`)).not.toEqual([]);
    const link = exported.files.find((file: { kind: string }) => file.kind === 'received_emails').download_url as string;
    expect((await fetch(link)).status).toBe(200);

    // A second export, turned into one of an older release: no mark, no references (whom it names is not known).
    let older = (await api('POST', '/exports', { key: owner.key })).body.export;
    while (older.status === 'running') older = (await api('GET', `/exports/${older.id}`, { key: owner.key })).body.export;
    await asExportOfBefore(owner.id, older.id);

    const before = await tracesOf(person);
    // The scan reads what the test wrote (raw messages, bodies, export parts name the person).
    expect(before.objects.length).toBeGreaterThan(0);
    const deliveriesBefore = before.items.filter((item) => item.type === 'webhook_delivery').length;
    expect(deliveriesBefore).toBeGreaterThanOrEqual(5);
    expect(
      before.items
        .filter((item) => item.type === 'email')
        .map((item) => item.PK)
        .sort(),
    ).toEqual([`EMAIL#${replyTo}`, `EMAIL#${cc}`, `EMAIL#${bcc}`, `EMAIL#${relayed}`].sort());
    expect(before.items.filter((item) => item.type === 'run')).toHaveLength(1);
    expect(
      before.items
        .filter((item) => item.type === 'received_email')
        .map((item) => item.PK)
        .sort(),
    ).toEqual(received.map((id) => `RECEIVED#${id}`).sort());

    const erasureStarted = await api('POST', '/privacy/erasures', { key: owner.key, body: { email: person.toLowerCase() } });
    expect(erasureStarted.status).toBe(201);
    let erasure = erasureStarted.body.erasure;
    while (erasure.status === 'running') erasure = (await api('GET', `/privacy/erasures/${erasure.id}`, { key: owner.key })).body.erasure;
    expect(erasure.status).toBe('completed');
    expect(erasure.removed).toMatchObject({
      emails: 4,
      received_emails: 3,
      webhook_deliveries: deliveriesBefore,
      exports: 2,
      idempotency_records: 0,
      automation_runs: 1,
    });
    expect(erasure.removed.objects).toBeGreaterThan(0);

    // Nothing left anywhere, in any case or encoding; the erasure's record holds the hash, never the address.
    expect(await tracesOf(person)).toEqual({ items: [], objects: [] });
    for (const id of [exported.id, older.id]) expect((await api('GET', `/exports/${id}`, { key: owner.key })).status).toBe(404);
    expect(await objectsNaming('', `exports/${owner.id}/`)).toEqual([]);
    expect((await fetch(link)).status).not.toBe(200);
    for (const id of [replyTo, cc, bcc, relayed]) expect((await api('GET', `/emails/${id}`, { key: owner.key })).status).toBe(404);
    for (const id of received) expect((await api('GET', `/received-emails/${id}`, { key: owner.key })).status).toBe(404);
    // What never named the person stays.
    expect((await api('GET', `/emails/${unrelated}`, { key: owner.key })).status).toBe(200);
    expect((await api('GET', `/received-emails/${unrelatedReceived}`, { key: owner.key })).status).toBe(200);
    // The account can export again (the erased export's running slot is not held).
    const again = await api('POST', '/exports', { key: owner.key });
    expect(again.status).toBe(201);
  });
});
