/** The size estimate behind the 40 MB refusal is an upper bound of what the composer really builds, and a tight one. */
import { randomBytes } from 'node:crypto';
import { estimateMessageBytes } from '#shared/domain/emails/attachments';
import type { Email } from '#shared/domain/emails/email';
import { composeMime } from '#shared/domain/mime/compose';

const MiB = 1024 * 1024;

function email(): Email {
  return {
    id: 'msg_01JD3QZ8X9K2M4N6P8R0S2T4V6',
    account_id: 'acc_1',
    from: 'Sender <a@sandbox.mailservice.dev>',
    to: ['owner@example.com'],
    cc: [],
    bcc: [],
    reply_to: [],
    subject: 'Large files',
    status: 'queued',
    last_event: 'queued',
    bounce_reason: null,
    bounce_type: null,
    tags: [],
    headers: { 'X-Campaign': 'q3' },
    scheduled_at: null,
    cancelled_at: null,
    sent_at: null,
    delivered_at: null,
    bounced_at: null,
    created_at: '2025-06-01T12:00:00.000Z',
    tenant: null,
    provider_message_id: null,
  };
}

describe('estimateMessageBytes against composeMime', () => {
  it('bounds 3 x 9 MiB with long non-ASCII names and bodies, within 1%', async () => {
    const files = [0, 1, 2].map(() => randomBytes(9 * MiB));
    const text = 'Grüße — see the attached files. '.repeat(2000);
    const html = `<p>${text}</p>`;
    const raw = await composeMime(
      email(),
      { html, text },
      files.map((content, i) => ({
        filename: `Rapport financier trimestriel ${'é'.repeat(80)} ${i}.bin`,
        contentType: 'application/octet-stream',
        content,
      })),
    );
    const bodyBytes = Buffer.byteLength(html) + Buffer.byteLength(text);
    const estimate = estimateMessageBytes(
      files.map((f) => f.length),
      bodyBytes,
    );
    expect(raw.length).toBeLessThanOrEqual(estimate);
    expect(estimate / raw.length).toBeLessThan(1.01);
  });

  it('bounds one small file', async () => {
    const content = randomBytes(1000);
    const raw = await composeMime(email(), { text: 'hi' }, [{ filename: 'a.bin', contentType: 'application/octet-stream', content }]);
    expect(raw.length).toBeLessThanOrEqual(estimateMessageBytes([content.length], 2));
  });
});
