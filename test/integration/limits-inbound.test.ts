/**
 * A received message whose header fields are huge (the MX takes a header block of up to 1 MB) is still
 * recorded: its record must fit DynamoDB's 400 KB item and its email.received event SQS's 1 MiB message
 * (docs/deploy.md, "AWS limits"; shared/domain/inbound/record-bounds.ts). Before the bounds, a 450 KB
 * From field made an item DynamoDB refused, and the message, accepted with a 250, was never recorded.
 */
import { MAX_LIST_BYTES, MAX_VALUE_BYTES } from '#shared/domain/inbound/record-bounds';
import { mxTransport, receivedIds, receivingDomain, senderDomain, waitForReceived } from './harness/inbound';
import { newAccount } from './harness/stack';

jest.setTimeout(120_000);

it('records a message with a 450 KB From and 100 Cc addresses of 2 KB, cut to the bounds and marked truncated', async () => {
  const account = await newAccount({ plan: 'pro' });
  const inbox = await receivingDomain(account);
  const sender = await senderDomain();
  const cc = Array.from({ length: 100 }, (_, i) => `${'c'.repeat(2000)}${i}@${sender.name}`);
  const info = await mxTransport().sendMail({
    envelope: { from: `alice@${sender.name}`, to: [inbox.address('x')] },
    from: { name: 'A'.repeat(450_000), address: `alice@${sender.name}` },
    to: inbox.address('x'),
    cc,
    subject: 'Huge header fields',
    text: 'hello',
  });
  const [id] = receivedIds(info.response);
  const email = await waitForReceived(account, id!, 60_000);
  expect(email.truncated).toBe(true);
  expect(Buffer.byteLength(email.from)).toBeLessThanOrEqual(MAX_VALUE_BYTES);
  expect(email.from.startsWith('A'.repeat(100))).toBe(true);
  expect(email.cc.length).toBeGreaterThan(0);
  expect(email.cc.reduce((sum: number, entry: string) => sum + Buffer.byteLength(entry), 0)).toBeLessThanOrEqual(MAX_LIST_BYTES);
  expect(email.cc[0]).toBe(cc[0]);
  // The full header list keeps everything.
  const fromHeader = (email.headers as { name: string; value: string }[]).find((field) => field.name.toLowerCase() === 'from');
  expect(fromHeader!.value.length).toBeGreaterThan(450_000);
});
