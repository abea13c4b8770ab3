/** SES's "Email address is not verified" for our own sender: transient for a bounded time, then permanent. */
import { isUnverifiedSenderRefusal } from '#shared/adapters/aws/ses-unverified-sender';
import { MailerError } from '#shared/ports/mail';
import { UNVERIFIED_SENDER_GRACE_MS, unverifiedSenderGaveUp } from '#shared/usecases/send/unverified-sender';

const rejected = (message: string) => Object.assign(new Error(message), { name: 'MessageRejected' });
const words = 'Email address is not verified. The following identities failed the check in region US-EAST-1: ';

describe('an unverified-sender refusal', () => {
  it("is the sender's only when SES names nothing but the sender (address or domain)", () => {
    expect(isUnverifiedSenderRefusal(rejected(`${words}hello@acme.test`), 'hello@acme.test')).toBe(true);
    expect(isUnverifiedSenderRefusal(rejected(`${words}acme.test`), 'Hello@Acme.test')).toBe(true);
    // Sandbox: a recipient named too is not a sender problem (permanent).
    expect(isUnverifiedSenderRefusal(rejected(`${words}hello@acme.test, friend@example.org`), 'hello@acme.test')).toBe(false);
    expect(isUnverifiedSenderRefusal(rejected('Message length is more than 40 MB.'), 'hello@acme.test')).toBe(false);
    expect(
      isUnverifiedSenderRefusal(Object.assign(new Error(`${words}hello@acme.test`), { name: 'BadRequestException' }), 'hello@acme.test'),
    ).toBe(false);
  });

  it('is retried until the grace after the email was due has passed', () => {
    const error = new MailerError('SES MessageRejected: …', false, { senderNotVerified: true });
    const email = { created_at: '2026-01-01T00:00:00.000Z', scheduled_at: null };
    expect(unverifiedSenderGaveUp(error, email, new Date(Date.parse(email.created_at) + UNVERIFIED_SENDER_GRACE_MS - 1))).toBe(false);
    expect(unverifiedSenderGaveUp(error, email, new Date(Date.parse(email.created_at) + UNVERIFIED_SENDER_GRACE_MS))).toBe(true);
    expect(unverifiedSenderGaveUp(new MailerError('other', false), email, new Date('2027-01-01T00:00:00Z'))).toBe(false);
  });
});
