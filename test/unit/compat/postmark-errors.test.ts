/**
 * The Postmark door's answers (shared/doors/compat/postmark): our typed errors -> Postmark's status and
 * ErrorCode, the success answer, the batch answer (one entry per message, in order, each with its own
 * ErrorCode), and the routes' refusals that need no account (401, 404) in Postmark's shape.
 */
import { Hono } from 'hono';
import {
  AppError,
  ForbiddenError,
  RateLimitedError,
  ServiceUnavailableError,
  UnauthorizedError,
  ValidationError,
} from '#shared/domain/errors';
import type { ApiEnv } from '#shared/doors/http/env';
import { batchAnswer, sentAnswer } from '#shared/doors/compat/postmark/answers';
import { serverTokenHash } from '#shared/doors/compat/postmark/auth';
import { postmarkCodeOf, postmarkErrorAnswer, PostmarkFailure } from '#shared/doors/compat/postmark/errors';
import { fromOurField } from '#shared/doors/compat/postmark/field-names';
import { mountPostmark } from '#shared/doors/compat/postmark/routes';
import type { CompatServices } from '#shared/doors/compat/services';

describe("our errors -> Postmark's", () => {
  it('answers 401 with ErrorCode 10 for a bad key or a key that may not send', () => {
    expect(postmarkErrorAnswer(new UnauthorizedError('Invalid API key.'))).toEqual({
      status: 401,
      body: { ErrorCode: 10, Message: 'Invalid API key.' },
    });
    expect(postmarkCodeOf({ code: 'insufficient_scope', message: 'no scope' })).toMatchObject({ status: 401, errorCode: 10 });
  });

  it('maps the sender checks to the sender signature codes, the sandbox to 412', () => {
    expect(
      postmarkErrorAnswer(
        new ForbiddenError('The domain x.com is not verified for this account.', 'domain_not_verified', { details: { domain: 'x.com' } }),
      ),
    ).toMatchObject({ status: 422, body: { ErrorCode: 400 } });
    expect(
      postmarkErrorAnswer(
        new ForbiddenError('added but not verified', 'domain_not_verified', { details: { domain: 'x.com', status: 'pending' } }),
      ),
    ).toMatchObject({ status: 422, body: { ErrorCode: 401 } });
    expect(postmarkCodeOf({ code: 'domain_not_allowed', message: 'm' })).toMatchObject({ status: 422, errorCode: 400 });
    expect(postmarkCodeOf({ code: 'recipient_not_allowed', message: 'm' })).toMatchObject({ status: 422, errorCode: 412 });
    expect(postmarkCodeOf({ code: 'forbidden', message: 'paused' })).toMatchObject({ status: 422, errorCode: 405 });
  });

  it('maps a suppressed or opted-out recipient to 406 in the words the SDK parses the addresses from', () => {
    const answer = postmarkErrorAnswer(
      new AppError(422, 'validation_error', 'A recipient is on the suppression list: a@x.com.', {
        details: { suppressed: ['a@x.com', 'b@x.com'], email_id: 'msg_1' },
      }),
    );
    expect(answer.status).toBe(422);
    expect(answer.body.ErrorCode).toBe(406);
    // The postmark SDK's InactiveRecipientsError pattern.
    expect(/Found inactive addresses: (.+?)\.? Inactive/.exec(answer.body.Message)![1]).toBe('a@x.com, b@x.com');
    expect(
      postmarkCodeOf({ code: 'validation_error', message: 'm', details: { category_unsubscribed: ['c@x.com'], category: 'product' } }),
    ).toMatchObject({ errorCode: 406 });
  });

  it("maps a template that is not there to 1101, a blocked extension to 411, other bad input to 300 naming Postmark's fields", () => {
    expect(
      postmarkCodeOf({
        code: 'validation_error',
        message: 'Template "x" does not exist.',
        details: { fields: [{ field: 'template.id', message: 'no template with alias "x"' }] },
      }),
    ).toMatchObject({ status: 422, errorCode: 1101 });
    expect(
      postmarkCodeOf({
        code: 'validation_error',
        message: 'm',
        details: {
          fields: [{ field: 'attachments.0.filename', message: '"a.exe" is refused: files with the extension .exe cannot be attached' }],
        },
      }),
    ).toMatchObject({ errorCode: 411 });
    const invalid = postmarkErrorAnswer(
      new ValidationError('Invalid request body: check to.', {
        details: {
          fields: [
            { field: 'to.0', message: '"x" is not a valid email address' },
            { field: 'html', message: 'one of html or text is required' },
          ],
        },
      }),
    );
    expect(invalid).toMatchObject({ status: 422, body: { ErrorCode: 300 } });
    expect(invalid.body.Message).toBe(
      'Invalid email request: To: "x" is not a valid email address; HtmlBody: one of html or text is required.',
    );
    expect(postmarkCodeOf({ code: 'payload_too_large', message: 'too big' })).toMatchObject({ status: 422, errorCode: 300 });
  });

  it('names our fields as Postmark does', () => {
    expect(fromOurField('attachments.2.filename')).toBe('Attachments[2].Name');
    expect(fromOurField('template.variables.name')).toBe('TemplateModel.name');
    expect(fromOurField('reply_to')).toBe('ReplyTo');
    expect(fromOurField('text')).toBe('TextBody');
  });

  it("answers 429 (with Retry-After) for rate limits, 422/405 for the plan's cap, 503/100 and 500 for server trouble", () => {
    const limited = postmarkErrorAnswer(new RateLimitedError(10, 1, 1));
    expect(limited).toMatchObject({ status: 429, body: { ErrorCode: 429 }, headers: { 'Retry-After': '1' } });
    expect(postmarkCodeOf({ code: 'plan_limit', message: 'monthly limit' })).toMatchObject({ status: 422, errorCode: 405 });
    expect(postmarkErrorAnswer(new ServiceUnavailableError('down'))).toMatchObject({ status: 503, body: { ErrorCode: 100 } });
    expect(postmarkErrorAnswer(new Error('bug'))).toMatchObject({ status: 500, body: { ErrorCode: 500 } });
    expect(postmarkErrorAnswer(new PostmarkFailure(1235, 'stream'))).toEqual({ status: 422, body: { ErrorCode: 1235, Message: 'stream' } });
  });
});

describe("Postmark's success answers", () => {
  const at = new Date('2026-01-02T03:04:05.000Z');

  it('answers one message with To, SubmittedAt, MessageID, ErrorCode 0 and Message OK', () => {
    expect(sentAnswer('a@x.com', 'msg_1', at)).toEqual({
      To: 'a@x.com',
      SubmittedAt: '2026-01-02T03:04:05.000Z',
      MessageID: 'msg_1',
      ErrorCode: 0,
      Message: 'OK',
    });
  });

  it("answers a batch one entry per message in order: the door's refusals between the core's results", () => {
    const entries = batchAnswer(
      [
        { to: 'a@x.com', request: {} },
        { to: 'b@x.com', refused: new PostmarkFailure(1235, 'no such stream') },
        { to: 'c@x.com', request: {} },
        { to: null, request: {} },
      ],
      [
        { index: 0, id: 'msg_a', status: 'sent' },
        {
          index: 1,
          id: 'msg_c',
          status: 'failed',
          error: { code: 'validation_error', message: 'suppressed', details: { suppressed: ['c@x.com'], email_id: 'msg_c' } },
        },
        {
          index: 2,
          id: null,
          status: 'failed',
          error: {
            code: 'validation_error',
            message: 'Invalid email: check to.',
            details: { fields: [{ field: 'to', message: 'at least one recipient is required' }] },
          },
        },
      ],
      at,
    );
    expect(entries).toEqual([
      { To: 'a@x.com', SubmittedAt: at.toISOString(), MessageID: 'msg_a', ErrorCode: 0, Message: 'OK' },
      { To: 'b@x.com', ErrorCode: 1235, Message: 'no such stream' },
      { To: 'c@x.com', ErrorCode: 406, Message: expect.stringContaining('Found inactive addresses: c@x.com.') },
      { ErrorCode: 300, Message: 'Invalid email request: To: at least one recipient is required.' },
    ]);
  });
});

describe("the Postmark routes' refusals before any read", () => {
  // Nothing of the services is used by these answers: a request reaching them would fail the test.
  const app = new Hono<ApiEnv>();
  mountPostmark(app, {} as CompatServices);
  const post = (path: string, headers: Record<string, string> = {}) =>
    app.request(path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: '{}' });

  it('answers 401 ErrorCode 10 without the X-Postmark-Server-Token header, or with a token that is not a key of ours', async () => {
    for (const path of ['/email', '/email/batch', '/email/withTemplate', '/email/batchWithTemplates']) {
      const missing = await post(path);
      expect(missing.status).toBe(401);
      expect(await missing.json()).toMatchObject({ ErrorCode: 10, Message: expect.stringContaining('X-Postmark-Server-Token') });
    }
    const wrong = await post('/email', { 'X-Postmark-Server-Token': 'a-postmark-server-token' });
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toMatchObject({ ErrorCode: 10 });
    expect(() => serverTokenHash('  ')).toThrow(PostmarkFailure);
  });

  it("answers 404 in Postmark's shape under /email, and leaves other paths alone", async () => {
    const unknown = await post('/email/unknown');
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ ErrorCode: 404 });
    const get = await app.request('/email', { method: 'GET' });
    expect(get.status).toBe(404);
    expect(await get.json()).toMatchObject({ ErrorCode: 404 });
    const other = await app.request('/v3/mail/send', { method: 'POST' });
    expect(other.status).toBe(404);
    expect(await other.text()).not.toContain('ErrorCode');
  });
});
