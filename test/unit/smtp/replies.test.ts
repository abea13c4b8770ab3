import {
  AppError,
  ForbiddenError,
  RateLimitedError,
  ServiceUnavailableError,
  UnauthorizedError,
  ValidationError,
  ConflictError,
  NotFoundError,
} from '#shared/domain/errors';
import { replyFor, SmtpRefusal, smtpErrorOf } from '#shared/doors/smtp/replies';

describe('AppError -> SMTP reply (one mapping)', () => {
  it.each([
    ['401', new UnauthorizedError('Invalid SMTP credential.'), 535, '5.7.8'],
    ['403 domain', new ForbiddenError('The domain x.test is not verified for this account.', 'domain_not_verified'), 550, '5.7.1'],
    ['403 recipient', new ForbiddenError('sandbox', 'recipient_not_allowed'), 550, '5.7.1'],
    [
      '422 suppressed',
      new AppError(422, 'validation_error', 'A recipient is on the suppression list: a@b.test.', { details: { suppressed: ['a@b.test'] } }),
      550,
      '5.1.1',
    ],
    [
      '422 opted out',
      new AppError(422, 'validation_error', 'unsubscribed', { details: { category_unsubscribed: ['a@b.test'], category: 'newsletter' } }),
      550,
      '5.7.1',
    ],
    ['422 other', new AppError(422, 'validation_error', 'bad attachment'), 550, '5.6.0'],
    ['429 daily plan', new AppError(429, 'plan_limit', 'daily', { details: { period: 'day' } }), 451, '4.7.1'],
    ['429 monthly plan', new AppError(429, 'plan_limit', 'monthly', { details: { period: 'month' } }), 550, '5.7.1'],
    ['429 ramp', new AppError(429, 'daily_ramp_limit', 'ramp'), 451, '4.7.1'],
    ['429 rate', new RateLimitedError(10, 1, 1), 451, '4.7.1'],
    ['413', new AppError(413, 'payload_too_large', 'too big'), 552, '5.3.4'],
    ['400', new ValidationError('The message From field is missing.'), 550, '5.6.0'],
    ['404', new NotFoundError('Tenant', 'nope'), 550, '5.6.0'],
    ['409', new ConflictError('key reused', 'idempotency_conflict'), 550, '5.6.0'],
    ['503', new ServiceUnavailableError('The email could not be stored.'), 451, '4.3.0'],
  ])('%s', (_name, error, code, enhanced) => {
    expect(replyFor(error)).toMatchObject({ code, enhanced });
  });

  it('keeps the message and its hint on one line', () => {
    const reply = replyFor(new ForbiddenError('Not verified.\r\nInjected: yes', 'domain_not_verified', { hint: 'Verify it.' }));
    expect(reply.text).toBe('Not verified. Injected: yes Verify it.');
  });

  it('answers anything unexpected with 451 4.3.0 and reveals nothing', () => {
    expect(replyFor(new Error('ECONNREFUSED 10.0.0.3:8000'))).toEqual({
      code: 451,
      enhanced: '4.3.0',
      text: 'Temporary local problem; nothing was sent. Try again later.',
    });
    expect(replyFor(new AppError(500, 'internal_error', 'stack trace here')).text).not.toContain('stack');
  });

  it('passes SMTP refusals through, and builds the handler error with the enhanced code first', () => {
    expect(replyFor(new SmtpRefusal(452, '4.5.3', 'Too many recipients'))).toEqual({
      code: 452,
      enhanced: '4.5.3',
      text: 'Too many recipients',
    });
    const error = smtpErrorOf(new UnauthorizedError('Invalid SMTP credential.'));
    expect(error.responseCode).toBe(535);
    expect(error.message).toBe('5.7.8 Invalid SMTP credential.');
  });
});
