/**
 * shared/adapters/aws/sqs-message-body.ts: a queue message's body holds only the characters SQS takes
 * (API_SendMessage: #x9 | #xA | #xD | #x20-#xD7FF | #xE000-#xFFFD | #x10000-#x10FFFF), every other UTF-16
 * unit a JSON escape, and parses back to the same value. Strangers' content (a subject with U+FFFF, an
 * emoji, a lone surrogate) must never make a message refused, or its sender's work fail to the DLQ.
 */
import { sqsMessageBody } from '#shared/adapters/aws/sqs-message-body';
import { INVALID_MESSAGE_BODY_CHAR } from '#test/support/fauxqs-body-rule';

/** SQS's rule, over code points. */
const TAKEN_BY_SQS = /^[\x09\x0A\x0D\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]*$/u;

describe('sqsMessageBody', () => {
  const hostile = {
    subject: 'Sale \uFFFF ends \uFFFE today 🎉',
    name: 'lone \uD800 surrogate, and one \uDC00 too',
    tags: [{ name: 'k', value: 'zero\u0000width\u200B\u007F' }],
    html: '<p>naïve café — 日本語</p>',
  };

  it('takes only what SQS takes, and what the local SQS takes (one UTF-16 unit at a time)', () => {
    const body = sqsMessageBody(hostile);
    expect(body).toMatch(TAKEN_BY_SQS);
    expect(INVALID_MESSAGE_BODY_CHAR.test(body)).toBe(false);
    // Plain JSON would not do: SQS refuses U+FFFF, fauxqs the emoji.
    expect(JSON.stringify(hostile)).not.toMatch(TAKEN_BY_SQS);
  });

  it('parses back to the same value', () => {
    expect(JSON.parse(sqsMessageBody(hostile))).toEqual(hostile);
    expect(JSON.parse(sqsMessageBody({ email_id: 'msg_1', n: 3 }))).toEqual({ email_id: 'msg_1', n: 3 });
  });

  it('leaves a body of taken characters as JSON.stringify writes it', () => {
    const plain = { email_id: 'msg_01ABC', subject: 'Hello, naïve café — 日本語\ttab' };
    expect(sqsMessageBody(plain)).toBe(JSON.stringify(plain));
  });
});
