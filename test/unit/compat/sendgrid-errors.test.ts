/**
 * The SendGrid door's answers: our typed errors as SendGrid's `{"errors": [{message, field, help}]}` with
 * SendGrid's statuses, our field names as SendGrid's, the send core's outcomes (single and batch; a
 * suppressed recipient accepted as SendGrid accepts and drops it), and the routes' own answers (401 before
 * anything is read, 405, SendGrid's 404, Mailgun's /v3/{domain}/ paths left to its door).
 */
import { Hono } from 'hono';
import {
  AppError,
  ForbiddenError,
  InsufficientScopeError,
  RateLimitedError,
  UnauthorizedError,
  ValidationError,
} from '#shared/domain/errors';
import type { ApiEnv } from '#shared/doors/http/env';
import { droppedEmailId, outcomeOfBatch, outcomeOfError } from '#shared/doors/compat/sendgrid/answer';
import { MAX_ANSWERED_ERRORS, SendgridRequestError, sendgridError } from '#shared/doors/compat/sendgrid/errors';
import { sendgridFieldOf } from '#shared/doors/compat/sendgrid/field-names';
import { bearerKey } from '#shared/doors/compat/sendgrid/mail-send';
import { isMailgunPath, mountSendgrid } from '#shared/doors/compat/sendgrid/routes';
import { importedAliasOf, templateAliasOf } from '#shared/doors/compat/sendgrid/template-alias';
import type { CompatServices } from '#shared/doors/compat/services';
import type { ReportPart } from '#shared/domain/imports/report';

describe('our field names -> SendGrid field names', () => {
  it.each([
    ['to', 0, 'personalizations.0.to'],
    ['to.2', 0, 'personalizations.0.to.2.email'],
    ['cc.0', 3, 'personalizations.3.cc.0.email'],
    ['emails.4.bcc.1', 0, 'personalizations.4.bcc.1.email'],
    ['emails.4', 0, 'personalizations.4'],
    ['from', 0, 'from.email'],
    ['html', 0, 'content'],
    ['text', 0, 'content'],
    ['subject', 0, 'subject'],
    ['reply_to.0', 0, 'reply_to'],
    ['attachments.1.data', 0, 'attachments.1.content'],
    ['attachments.1.content_type', 0, 'attachments.1.type'],
    ['attachments.1.filename', 0, 'attachments.1.filename'],
    ['attachments', 0, 'attachments'],
    ['headers.X-Bad', 0, 'headers'],
    ['tags.3.value', 0, 'categories'],
    ['scheduled_at', 0, 'send_at'],
    ['template.id', 0, 'template_id'],
    ['emails.2.template.variables.first_name', 0, 'personalizations.2.dynamic_template_data'],
    ['category', 0, 'asm'],
    ['(body)', 0, null],
    ['', 0, null],
  ])('%s (personalization %d) -> %s', (ours, index, theirs) => {
    expect(sendgridFieldOf(ours, index)).toBe(theirs);
  });
});

describe("our errors -> SendGrid's error answers", () => {
  it('answers a 400 with one error per field, named as SendGrid names them, our hint as help', () => {
    const error = new ValidationError('Invalid email', {
      details: {
        fields: [
          { field: 'to.0', message: '"x" is not a valid email address' },
          { field: 'from', message: 'bad from' },
        ],
      },
      hint: 'Fix it.',
    });
    expect(sendgridError(error)).toEqual({
      status: 400,
      body: {
        errors: [
          { message: '"x" is not a valid email address', field: 'personalizations.0.to.0.email', help: 'Fix it.' },
          { message: 'bad from', field: 'from.email', help: 'Fix it.' },
        ],
      },
    });
  });

  it("answers the door's own refusals with SendGrid's fields as they are", () => {
    expect(
      sendgridError(
        new SendgridRequestError([
          { field: 'sections', message: 'no sections' },
          { field: null, message: 'body' },
        ]),
      ),
    ).toEqual({
      status: 400,
      body: {
        errors: [
          { message: 'no sections', field: 'sections', help: null },
          { message: 'body', field: null, help: null },
        ],
      },
    });
  });

  it('answers at most MAX_ANSWERED_ERRORS errors', () => {
    const fields = Array.from({ length: 500 }, (_, i) => ({ field: `emails.${i}.to`, message: 'bad' }));
    expect(sendgridError(new ValidationError('bad', { details: { fields } })).body.errors).toHaveLength(MAX_ANSWERED_ERRORS);
  });

  it('keeps 401, 403 (naming from or to for sender and recipient refusals), 413 and 429 (with Retry-After)', () => {
    expect(sendgridError(new UnauthorizedError('Invalid API key.'))).toEqual({
      status: 401,
      body: { errors: [{ message: 'Invalid API key.', field: null, help: null }] },
    });
    expect(
      sendgridError(new ForbiddenError('The domain x.test is not verified for this account.', 'domain_not_verified')).body.errors[0],
    ).toMatchObject({ field: 'from' });
    expect(sendgridError(new ForbiddenError('sandbox', 'recipient_not_allowed'), 2)).toMatchObject({
      status: 403,
      body: { errors: [{ field: 'personalizations.2.to' }] },
    });
    expect(sendgridError(new InsufficientScopeError(['emails:send'], ['domains:read'])).status).toBe(403);
    expect(sendgridError(new AppError(413, 'payload_too_large', 'too big')).status).toBe(413);
    const limited = sendgridError(new RateLimitedError(10, 1, 3));
    expect(limited).toMatchObject({ status: 429, headers: { 'Retry-After': '3' } });
    expect(sendgridError(new AppError(429, 'plan_limit', 'limit')).status).toBe(429);
  });

  it('answers our 404 and 409 as a bad request (mail/send has neither), and hides internal errors', () => {
    expect(sendgridError(new AppError(404, 'not_found', 'Tenant t was not found.')).status).toBe(400);
    expect(sendgridError(new AppError(409, 'conflict', 'c')).status).toBe(400);
    const internal = sendgridError(new Error('secret stack detail'));
    expect(internal.status).toBe(500);
    expect(JSON.stringify(internal.body)).not.toContain('secret');
    expect(sendgridError(new AppError(503, 'service_unavailable', 'Try again.'))).toEqual({
      status: 503,
      body: { errors: [{ message: 'Try again.', field: null, help: null }] },
    });
  });
});

describe("the send core's outcome -> SendGrid's answer", () => {
  const suppressed = new AppError(422, 'validation_error', 'A recipient is on the suppression list: a@example.net.', {
    details: { suppressed: ['a@example.net'], email_id: 'msg_1' },
  });

  it('accepts a send refused only for a suppressed or opted-out recipient, with the kept email id (SendGrid drops it)', () => {
    expect(outcomeOfError(suppressed)).toEqual({ kind: 'accepted', messageId: 'msg_1' });
    expect(droppedEmailId('validation_error', { category_unsubscribed: ['a@x.test'], category: 'product', email_id: 'msg_2' })).toBe(
      'msg_2',
    );
    expect(droppedEmailId('validation_error', { fields: [] })).toBeNull();
    expect(droppedEmailId('forbidden', { suppressed: ['a'], email_id: 'msg_3' })).toBeNull();
  });

  it('answers any other error in SendGrid shape', () => {
    expect(outcomeOfError(new ForbiddenError('no', 'domain_not_verified'))).toMatchObject({ kind: 'error', answer: { status: 403 } });
  });

  it('accepts a batch whose items were all sent or dropped, naming the first email', () => {
    const outcome = outcomeOfBatch({
      data: [
        { index: 1, id: 'msg_b', status: 'scheduled' },
        { index: 0, id: 'msg_a', status: 'sent' },
        {
          index: 2,
          id: 'msg_c',
          status: 'failed',
          error: { code: 'validation_error', message: 'suppressed', details: { suppressed: ['x@y.z'], email_id: 'msg_c' } },
        },
      ],
    });
    expect(outcome).toEqual({ kind: 'accepted', messageId: 'msg_a' });
  });

  it("answers a batch's first real failure, naming its personalization and saying which were accepted", () => {
    const outcome = outcomeOfBatch({
      data: [
        { index: 0, id: 'msg_a', status: 'sent' },
        {
          index: 1,
          id: null,
          status: 'failed',
          error: { code: 'recipient_not_allowed', message: 'The sandbox sender can only send to the account email.' },
        },
      ],
    });
    expect(outcome).toMatchObject({ kind: 'error', answer: { status: 403, body: { errors: [{ field: 'personalizations.1.to' }] } } });
    const message = (outcome as { answer: { body: { errors: { message: string }[] } } }).answer.body.errors[0]!.message;
    expect(message).toContain('personalizations.1: The sandbox sender');
    expect(message).toContain('Personalizations 0 (msg_a) were accepted');
  });

  it('answers a batch where every item failed with the first failure, and no accepted note', () => {
    const outcome = outcomeOfBatch({
      data: [
        { index: 0, id: null, status: 'failed', error: { code: 'domain_not_verified', message: 'The domain x.test is not verified.' } },
        { index: 1, id: null, status: 'failed', error: { code: 'domain_not_verified', message: 'The domain x.test is not verified.' } },
      ],
    });
    expect(outcome).toEqual({
      kind: 'error',
      answer: {
        status: 403,
        body: { errors: [{ message: 'personalizations.0: The domain x.test is not verified.', field: 'from', help: null }] },
      },
    });
  });
});

describe('template ids', () => {
  const part = (items: { source_id: string; alias: string; status: string }[]) => ({ templates: { items } }) as unknown as ReportPart;

  it('finds the alias an import gave a SendGrid template id (not a failed item)', () => {
    const parts = [
      part([{ source_id: 'd-1', alias: 'failed-one', status: 'failed' }]),
      part([{ source_id: 'd-1', alias: 'welcome-email', status: 'imported' }]),
    ];
    expect(importedAliasOf(parts, 'd-1')).toBe('welcome-email');
    expect(importedAliasOf(parts, 'd-2')).toBeNull();
  });

  function fakes(templates: string[], imports: { id: string; provider: string; dry_run: boolean; parts: ReportPart[] }[]) {
    const reads: string[] = [];
    return {
      reads,
      deps: {
        templates: {
          get: async (_account: string, alias: string) => {
            reads.push(`template ${alias}`);
            return templates.includes(alias) ? ({ alias } as never) : null;
          },
        },
        imports: {
          list: async () => {
            reads.push('imports');
            return { items: imports.map((i) => ({ id: i.id, provider: i.provider, dry_run: i.dry_run })) as never[], next_cursor: null };
          },
          parts: async (_account: string, id: string) => {
            reads.push(`parts ${id}`);
            return imports.find((i) => i.id === id)!.parts;
          },
        },
      },
    };
  }

  it('uses a template whose alias is the id itself, reading nothing more', async () => {
    const { deps, reads } = fakes(['d-abc'], []);
    expect(await templateAliasOf(deps, 'acc', 'D-ABC')).toBe('d-abc');
    expect(reads).toEqual(['template d-abc']);
  });

  it("else the alias of the newest SendGrid import that has the id (other providers' imports not read)", async () => {
    const { deps, reads } = fakes(
      [],
      [
        { id: 'mig_pm', provider: 'postmark', dry_run: false, parts: [] },
        {
          id: 'mig_sg',
          provider: 'sendgrid',
          dry_run: false,
          parts: [part([{ source_id: 'd-abc', alias: 'welcome-email', status: 'imported' }])],
        },
      ],
    );
    expect(await templateAliasOf(deps, 'acc', 'd-abc')).toBe('welcome-email');
    expect(reads).toEqual(['template d-abc', 'imports', 'parts mig_sg']);
  });

  it('else the id itself (the send core then answers that no such template exists)', async () => {
    const { deps } = fakes([], []);
    expect(await templateAliasOf(deps, 'acc', 'd-nope')).toBe('d-nope');
  });
});

describe("the door's routes", () => {
  /** A services object the tested paths never reach (a call would throw). */
  const unreachable = new Proxy(
    {},
    {
      get: (_t, name) => {
        throw new Error(`services.${String(name)} used`);
      },
    },
  ) as CompatServices;

  function app() {
    const hono = new Hono<ApiEnv>();
    mountSendgrid(hono, unreachable);
    hono.post('/v3/:domain/messages', (c) => c.json({ mailgun: c.req.param('domain') }));
    return hono;
  }

  it('answers 401 in SendGrid shape without a key, or with a key not shaped like ours, reading nothing', async () => {
    const missing = await app().request('/v3/mail/send', { method: 'POST', body: '{}' });
    expect(missing.status).toBe(401);
    expect(await missing.json()).toEqual({ errors: [{ message: expect.stringContaining('Missing API key'), field: null, help: null }] });
    const sendgridKey = await app().request('/v3/mail/send', {
      method: 'POST',
      body: '{}',
      headers: { Authorization: 'Bearer SG.abc.def' },
    });
    expect(sendgridKey.status).toBe(401);
    expect(((await sendgridKey.json()) as { errors: { message: string }[] }).errors[0]!.message).toMatch(/Invalid API key/);
  });

  it('answers 405 for other methods on /v3/mail/send and 404 for other SendGrid paths, in SendGrid shape', async () => {
    const get = await app().request('/v3/mail/send');
    expect(get.status).toBe(405);
    expect(((await get.json()) as { errors: unknown[] }).errors[0]).toMatchObject({ field: null });
    const unknown = await app().request('/v3/templates', { method: 'POST' });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ errors: [{ message: 'resource not found', field: null, help: null }] });
  });

  it("leaves Mailgun's /v3/{domain}/ paths to its door", async () => {
    expect(isMailgunPath('/v3/mg.example.com/messages')).toBe(true);
    expect(isMailgunPath('/v3/mail/send')).toBe(false);
    const mailgun = await app().request('/v3/mg.example.com/messages', { method: 'POST' });
    expect(await mailgun.json()).toEqual({ mailgun: 'mg.example.com' });
  });

  it('reads the bearer key', () => {
    expect(bearerKey('Bearer svc_abc')).toBe('svc_abc');
    expect(bearerKey('bearer  svc_abc ')).toBe('svc_abc');
    expect(() => bearerKey('Basic abc')).toThrow(/Invalid API key/);
    expect(() => bearerKey(undefined)).toThrow(/Missing API key/);
  });
});
