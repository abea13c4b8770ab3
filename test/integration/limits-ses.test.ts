/**
 * SES v2's recipients per message (50: https://docs.aws.amazon.com/ses/latest/dg/quotas.html), which the
 * SES emulator enforces (localstack/emulators/ses/send-envelope.ts, MAX_RECIPIENTS of message-limits.ts): the product's answer is its
 * own 400 naming the limit before anything is stored or sent, and a send of exactly 50 goes out as one
 * SES message to all 50. (The 40 MB message size: test/integration/attachment-uploads.test.ts, 413
 * payload_too_large at both the API and the SMTP relay.)
 */
import { verifiedDomain } from './harness/domains';
import { diagnosed } from './harness/email-diagnosis';
import { api, newAccount, sesMessagesFor, waitFor } from './harness/stack';

jest.setTimeout(90_000);

it('sends to 50 recipients in one SES message and refuses 51 with 400 validation_error', async () => {
  const account = await newAccount({ plan: 'pro', paymentMethod: true });
  const domain = await verifiedDomain(account);
  const address = (n: number) => `r${n}@example.com`;
  const split = (n: number) => {
    const all = Array.from({ length: n }, (_, i) => address(i));
    return { to: all.slice(0, 20), cc: all.slice(20, 40), bcc: all.slice(40) };
  };

  const refused = await api('POST', '/emails', {
    key: account.key,
    body: { from: `a@${domain.name}`, ...split(51), subject: 'Too many', text: 't' },
  });
  expect(refused.status).toBe(400);
  expect(refused.body.error.code).toBe('validation_error');
  expect(JSON.stringify(refused.body.error)).toContain('at most 50 recipients');

  const sent = await api('POST', '/emails', {
    key: account.key,
    body: { from: `a@${domain.name}`, ...split(50), subject: 'Fifty', text: 't' },
  });
  expect(sent.status).toBe(200);
  const messages = await diagnosed(
    sent.body.id,
    waitFor(async () => {
      const found = await sesMessagesFor(sent.body.id, { raw: false });
      return found.length ? found : undefined;
    }, 'the SES message'),
  );
  expect(messages).toHaveLength(1);
  expect(new Set((messages[0] as unknown as { to: string[] }).to).size).toBe(50);
});
