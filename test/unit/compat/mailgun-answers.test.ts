/**
 * The Mailgun door's answers (shared/doors/compat/mailgun/answers.ts): the queued answer and its id, and
 * each of our typed errors as Mailgun's status and body.
 */
import { AppError, ForbiddenError, RateLimitedError, UnauthorizedError, ValidationError, NotFoundError } from '#shared/domain/errors';
import { appErrorOf, emailIdOf, errorAnswer, mailgunFieldOf, queued } from '#shared/doors/compat/mailgun/answers';

const DOMAIN = 'mg.example.com';

describe('mailgun answers', () => {
  it('answers 200 Queued with a Message-ID form of our email id, and reads it back', () => {
    const answer = queued('msg_01ABC', DOMAIN);
    expect(answer).toEqual({ status: 200, body: { id: '<msg_01ABC@mg.example.com>', message: 'Queued. Thank you.' } });
    expect(emailIdOf('<msg_01ABC@mg.example.com>')).toBe('msg_01ABC');
    expect(emailIdOf('msg_01ABC')).toBe('msg_01ABC');
  });

  it('answers 400 naming the fields as Mailgun names them', () => {
    const error = new ValidationError('Invalid request body: check headers.Bcc, scheduled_at.', {
      details: {
        fields: [
          { field: 'headers.Bcc', message: 'this header is not allowed' },
          { field: 'scheduled_at', message: 'must be in the future' },
        ],
      },
    });
    expect(errorAnswer(error, DOMAIN)).toEqual({
      status: 400,
      body: { message: 'h:Bcc: this header is not allowed; o:deliverytime: must be in the future' },
    });
  });

  it("keeps Mailgun's own messages as they are", () => {
    const error = new ValidationError('x', { details: { fields: [{ field: 'from', message: "'from' parameter is missing" }] } });
    expect(errorAnswer(error, DOMAIN).body).toEqual({ message: "'from' parameter is missing" });
  });

  it('maps field names', () => {
    expect(mailgunFieldOf('tags.0.name')).toBe('o:tag / v:');
    expect(mailgunFieldOf('template.variables.x')).toBe('t:variables');
    expect(mailgunFieldOf('template.id')).toBe('template');
    expect(mailgunFieldOf('attachments.1')).toBe('attachment');
    expect(mailgunFieldOf('emails.3.to')).toBe('to');
    expect(mailgunFieldOf('subject')).toBe('subject');
  });

  it('answers 401 with the plain text Forbidden', () => {
    expect(errorAnswer(new UnauthorizedError('Invalid API key.'), DOMAIN)).toEqual({ status: 401, body: 'Forbidden' });
  });

  it('answers a domain this account does not have as 404 Domain not found', () => {
    const error = new ForbiddenError('The domain other.com is not verified for this account.', 'domain_not_verified', {
      details: { domain: 'other.com' },
    });
    expect(errorAnswer(error, DOMAIN)).toEqual({ status: 404, body: { message: 'Domain not found: other.com' } });
  });

  it('answers an added but unverified domain and other refusals as 403', () => {
    const unverified = new ForbiddenError('The domain x.com is added but not verified.', 'domain_not_verified', {
      details: { domain: 'x.com', domain_id: 'dom_1', status: 'pending' },
    });
    expect(errorAnswer(unverified, DOMAIN)).toEqual({ status: 403, body: { message: 'The domain x.com is added but not verified.' } });
    const sandbox = new ForbiddenError('The sandbox sender can only send to the account email (a@b.c).', 'recipient_not_allowed');
    expect(errorAnswer(sandbox, DOMAIN)).toEqual({ status: 403, body: { message: sandbox.message } });
  });

  it('answers a suppressed recipient as queued (its failed email kept), as Mailgun accepts and drops it', () => {
    const error = new AppError(422, 'validation_error', 'A recipient is on the suppression list: x@y.z.', {
      details: { suppressed: ['x@y.z'], email_id: 'msg_9' },
    });
    expect(errorAnswer(error, DOMAIN)).toEqual(queued('msg_9', DOMAIN));
  });

  it('answers 413, 429 (with Retry-After), 404, other 422s and 409s', () => {
    expect(errorAnswer(new AppError(413, 'payload_too_large', 'Too large.'), DOMAIN)).toEqual({
      status: 413,
      body: { message: 'Too large.' },
    });
    const limited = errorAnswer(new RateLimitedError(10, 1, 3), DOMAIN);
    expect(limited.status).toBe(429);
    expect(limited.headers).toEqual({ 'Retry-After': '3' });
    expect(errorAnswer(new NotFoundError('Tenant', 'acme'), DOMAIN)).toEqual({
      status: 404,
      body: { message: 'Tenant acme was not found.' },
    });
    expect(errorAnswer(new AppError(422, 'validation_error', 'run.msi is not sent by SES.'), DOMAIN).status).toBe(400);
    expect(errorAnswer(new AppError(409, 'conflict', 'Conflict.'), DOMAIN).status).toBe(400);
  });

  it('answers an unexpected error 500 without its internals', () => {
    const answer = errorAnswer(new Error('secret stack'), DOMAIN);
    expect(answer.status).toBe(500);
    expect(JSON.stringify(answer.body)).not.toContain('secret');
  });

  it("rebuilds a batch item's error with its status", () => {
    expect(appErrorOf({ code: 'recipient_not_allowed', message: 'no' }).status).toBe(403);
    expect(appErrorOf({ code: 'validation_error', message: 'suppressed', details: { email_id: 'msg_1' } }).status).toBe(422);
    expect(appErrorOf({ code: 'plan_limit', message: 'limit' }).status).toBe(429);
    expect(appErrorOf({ code: 'internal_error', message: 'x' }).status).toBe(500);
  });
});
