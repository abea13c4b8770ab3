/**
 * Sending and reading email through the public API (spec: Endpoints, Emails): one send, its record, the
 * listing, its outcome reported by SES, a batch, a scheduled send cancelled, and Idempotency-Key replay.
 */
import { check } from '../client';
import type { Step } from '../runner';
import { Skip } from '../runner';
import { secondsBetween, send, sendBody, subject, until, waitForOutcome } from './common';

function needEmail(state: Record<string, any>): string {
  if (!state.emailId) throw new Skip('not run: "send one email" did not send');
  return state.emailId as string;
}

export const keyWorks: Step = {
  name: 'the key is accepted (GET /emails)',
  critical: true,
  async run(ctx) {
    const answer = await ctx.api.expect(200, 'GET', '/emails?limit=1');
    check(Array.isArray(answer.body?.emails), 'GET /emails answered no emails array', answer);
  },
};

export const senderDomain: Step = {
  name: "the sender's domain (GET /domains)",
  async run(ctx) {
    const fromDomain = ctx.options.from.split('@')[1]!.toLowerCase();
    const answer = await ctx.api.expect(200, 'GET', '/domains?limit=100');
    const own = (answer.body.domains as any[]).find((domain) => domain.name === fromDomain);
    if (own) {
      check(own.status === 'verified', `--from is on ${fromDomain}, a domain of the account that is ${own.status}, not verified`, answer);
      ctx.state.ownDomain = { id: own.id as string, name: own.name as string, tenant: own.tenant as string | null, records: own.records };
      ctx.note(`--from is on the account's verified domain ${fromDomain}`);
    } else ctx.note(`${fromDomain} is not a domain of the account: sending as the sandbox sender`);
  },
};

export const sendOne: Step = {
  name: 'send one email (POST /emails)',
  async run(ctx) {
    ctx.state.emailId = await send(ctx, sendBody(ctx, 'one send', { tags: [{ name: 'run', value: ctx.runId }] }));
    ctx.note(ctx.state.emailId);
  },
};

export const getEmail: Step = {
  name: 'get the email (GET /emails/{id})',
  async run(ctx) {
    const id = needEmail(ctx.state);
    const answer = await ctx.api.expect(200, 'GET', `/emails/${id}`);
    const email = answer.body.email;
    check(email.id === id, `GET /emails/${id} answered the email ${email.id}`, answer);
    check(email.subject === subject(ctx, 'one send'), 'the stored subject differs from the one sent', answer);
    const to = ctx.options.to.toLowerCase();
    check(
      Array.isArray(email.to) && email.to.some((address: string) => address.toLowerCase() === to),
      'the stored recipients do not include --to',
      answer,
    );
    check(
      email.tags?.some((tag: any) => tag.name === 'run' && tag.value === ctx.runId),
      'the stored tags lack the run tag',
      answer,
    );
  },
};

export const listEmails: Step = {
  name: 'list emails (GET /emails)',
  async run(ctx) {
    const id = needEmail(ctx.state);
    // The listing reads an index (eventually consistent: docs/api.md, GET /emails), so it may take a moment.
    await until(ctx, `GET /emails to list ${id}`, async () => {
      const answer = await ctx.api.request('GET', '/emails?limit=25');
      if (answer.status === 429) return undefined; // rate_limited (10/s per account): ask again
      check(answer.status === 200, `GET /emails answered ${answer.status}`, answer);
      check(typeof answer.body.has_more === 'boolean' && 'next_cursor' in answer.body, 'GET /emails lacks has_more or next_cursor', answer);
      return (answer.body.emails as any[]).some((email) => email.id === id);
    });
  },
};

export const finalStatus: Step = {
  name: 'the email reaches its final status (SES outcome)',
  async run(ctx) {
    const email = await waitForOutcome(ctx, needEmail(ctx.state));
    ctx.state.delivered = true;
    ctx.note(
      `${email.status} ${secondsBetween(email.created_at, email.delivered_at ?? email.bounced_at ?? email.created_at)} after it was accepted`,
    );
  },
};

export const sendBatch: Step = {
  name: 'send a batch (POST /emails/batch) and see both delivered',
  async run(ctx) {
    const answer = await ctx.api.expect(200, 'POST', '/emails/batch', {
      body: { emails: [sendBody(ctx, 'batch item 0'), sendBody(ctx, 'batch item 1')] },
    });
    const items = answer.body.data as any[];
    check(Array.isArray(items) && items.length === 2, 'POST /emails/batch answered no 2-item data array', answer);
    items.forEach((item, index) => {
      check(item.index === index && /^msg_/.test(item.id ?? '') && !item.error, `batch item ${index} was not accepted`, answer);
    });
    for (const item of items) await waitForOutcome(ctx, item.id);
  },
};

export const scheduleAndCancel: Step = {
  name: 'schedule an email and cancel it (scheduled_at, PATCH /emails/{id})',
  async run(ctx) {
    const at = new Date(Date.now() + 3_600_000).toISOString();
    const answer = await ctx.api.expect(200, 'POST', '/emails', {
      body: sendBody(ctx, 'a scheduled send, cancelled', { scheduled_at: at }),
    });
    check(answer.body.status === 'scheduled', `a send with scheduled_at answered status ${answer.body.status}`, answer);
    const id = answer.body.id as string;
    // Should a later check fail, the email must not go out in an hour.
    ctx.cleanup.add(`scheduled email ${id}`, async () => {
      await ctx.api.expect([200, 409], 'PATCH', `/emails/${id}`, { body: { cancel: true } });
    });
    const stored = await ctx.api.expect(200, 'GET', `/emails/${id}`);
    check(
      stored.body.email.status === 'scheduled' && Date.parse(stored.body.email.scheduled_at) === Date.parse(at),
      'the stored email is not scheduled at the time sent',
      stored,
    );
    await ctx.api.expect(200, 'PATCH', `/emails/${id}`, { body: { cancel: true } });
    ctx.cleanup.done(`scheduled email ${id}`);
    const cancelled = await ctx.api.expect(200, 'GET', `/emails/${id}`);
    check(
      cancelled.body.email.status === 'cancelled' && cancelled.body.email.cancelled_at,
      'the email is not cancelled after PATCH {cancel: true}',
      cancelled,
    );
  },
};

export const idempotencyReplay: Step = {
  name: 'Idempotency-Key: a replay answers the same email, another body 409',
  async run(ctx) {
    const headers = { 'idempotency-key': `test-deployed-${ctx.runId}` };
    const body = sendBody(ctx, 'idempotent send');
    const first = await send(ctx, body, headers);
    const replay = await send(ctx, body, headers);
    check(replay === first, `the replay answered ${replay}, the first send ${first}`, ctx.api.last);
    const conflict = await ctx.api.expect(409, 'POST', '/emails', { body: { ...body, subject: `${body.subject} (changed)` }, headers });
    check(conflict.body?.error?.code === 'idempotency_conflict', 'the same key with another body is not idempotency_conflict', conflict);
    await waitForOutcome(ctx, first);
  },
};
