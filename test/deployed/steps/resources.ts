/**
 * The account's resources through the public API, each created, read and deleted again: a sending domain
 * (on a name under `.invalid`, reserved never to resolve by RFC 2606, so nothing can ever verify or send
 * from it), a suppression, a template (sent with once), a custom event; and the error envelope of a bad
 * request and of a wrong key.
 */
import { check } from '../client';
import type { Step } from '../runner';
import { checkEnvelope, create, removeAtEnd, send, until, waitForOutcome } from './common';

export const domainLifecycle: Step = {
  name: 'a domain: add, its DNS records, get, delete (POST/GET/DELETE /domains)',
  async run(ctx) {
    const name = `test-deployed-${ctx.runId}.invalid`;
    const added = await create(ctx, 201, '/domains', { name }, 'domain');
    const domain = added.body.domain;
    removeAtEnd(ctx, `domain ${name}`, `/domains/${domain.id}`);
    check(
      domain.name === name && domain.status === 'pending',
      `the new domain is ${domain.name} ${domain.status}, expected ${name} pending`,
      added,
    );
    const purposes = new Set((domain.records as any[]).filter((record) => record.required).map((record) => record.purpose));
    for (const purpose of ['ownership', 'dkim', 'return_path', 'spf'])
      check(purposes.has(purpose), `the domain's required records lack ${purpose}`, added);
    const dkim = (domain.records as any[]).find((record) => record.purpose === 'dkim');
    // Bring Your Own DKIM: the domain's own public key, published at <selector>._domainkey.<domain> (docs/domains.md).
    check(
      dkim.type === 'TXT' && dkim.name.endsWith(`._domainkey.${name}`) && /^v=DKIM1;.*\bp=[A-Za-z0-9+/=]{300,}/.test(dkim.value),
      'the DKIM record is not a TXT at <selector>._domainkey with a 2048-bit public key',
      added,
    );
    const got = await ctx.api.expect(200, 'GET', `/domains/${domain.id}`);
    check(
      got.body.domain.id === domain.id && got.body.domain.records.length === domain.records.length,
      'GET /domains/{id} answered another domain or other records',
      got,
    );
    await ctx.api.expect(200, 'DELETE', `/domains/${domain.id}`);
    ctx.cleanup.done(`domain ${name}`);
    await ctx.api.expect(404, 'GET', `/domains/${domain.id}`);
  },
};

export const suppressionLifecycle: Step = {
  name: 'a suppression: add, get, list, delete (/suppressions)',
  async run(ctx) {
    const email = `test-deployed+${ctx.runId}@example.com`;
    const query = `email=${encodeURIComponent(email)}`;
    const added = await ctx.api.expect(201, 'POST', '/suppressions', { body: { email } });
    removeAtEnd(ctx, `suppression ${email}`, `/suppressions?${query}`);
    check(
      added.body.created?.includes(email) && added.body.suppressions?.[0]?.reason === 'manual',
      'the address was not added as a manual suppression',
      added,
    );
    const got = await ctx.api.expect(200, 'GET', `/suppressions?${query}`);
    check(
      got.body.suppressions.length === 1 && got.body.suppressions[0].email === email,
      'GET /suppressions?email= does not find the address',
      got,
    );
    // The listing reads an index: an address added a moment ago can take a moment to appear (docs/suppressions.md).
    await until(ctx, `GET /suppressions to list ${email}`, async () => {
      const listed = await ctx.api.expect(200, 'GET', '/suppressions?limit=100');
      return (listed.body.suppressions as any[]).some((suppression) => suppression.email === email);
    });
    const removed = await ctx.api.expect(200, 'DELETE', `/suppressions?${query}`);
    check(
      removed.body.ok === true && removed.body.suppression?.email === email,
      'DELETE /suppressions did not answer the removed record',
      removed,
    );
    ctx.cleanup.done(`suppression ${email}`);
    const after = await ctx.api.expect(200, 'GET', `/suppressions?${query}`);
    check(after.body.suppressions.length === 0, 'the address is still suppressed after DELETE', after);
  },
};

export const templateLifecycle: Step = {
  name: 'a template: create, publish, render, send with it, delete (/templates)',
  async run(ctx) {
    const alias = `test-deployed-${ctx.runId}`;
    const body = {
      alias,
      name: 'test:deployed',
      subject: `test:deployed ${ctx.runId}: template for {{name}}`,
      text: 'Hello {{name}}, this came from a template.',
      variables: [{ key: 'name', type: 'string' }],
    };
    await create(ctx, 201, '/templates', body, 'template');
    removeAtEnd(ctx, `template ${alias}`, `/templates/${alias}`);
    const published = await ctx.api.expect(200, 'POST', `/templates/${alias}/publish`);
    check(published.body.template.status === 'published', 'the template is not published after publish', published);
    const rendered = await ctx.api.expect(200, 'POST', `/templates/${alias}/render`, { body: { variables: { name: 'Ada' } } });
    check(
      rendered.body.subject === `test:deployed ${ctx.runId}: template for Ada` &&
        rendered.body.text === 'Hello Ada, this came from a template.',
      'the render did not fill {{name}}',
      rendered,
    );
    const id = await send(ctx, { from: ctx.options.from, to: ctx.options.to, template: { id: alias, variables: { name: 'Ada' } } });
    const stored = await ctx.api.expect(200, 'GET', `/emails/${id}`);
    check(
      stored.body.email.subject === rendered.body.subject,
      'the email sent with the template has another subject than its render',
      stored,
    );
    await waitForOutcome(ctx, id);
    await ctx.api.expect(200, 'DELETE', `/templates/${alias}`);
    ctx.cleanup.done(`template ${alias}`);
    await ctx.api.expect(404, 'GET', `/templates/${alias}`);
  },
};

export const customEvent: Step = {
  name: 'a custom event (POST /events)',
  async run(ctx) {
    const answer = await ctx.api.expect(202, 'POST', '/events', {
      body: { name: 'test_deployed.ran', user_id: `test-deployed-${ctx.runId}`, data: { run: ctx.runId } },
    });
    const event = answer.body.event;
    check(
      /^ae_/.test(event?.id ?? '') && event.name === 'test_deployed.ran' && event.source === 'api',
      'POST /events answered no ae_ event named as sent',
      answer,
    );
    check(Number.isInteger(answer.body.matched_automations), 'POST /events answered no matched_automations count', answer);
  },
};

export const errorEnvelopes: Step = {
  name: 'errors: a bad request is 400 with the envelope, an unknown id 404, a wrong key 401',
  async run(ctx) {
    const bad = await ctx.api.expect(400, 'POST', '/emails', { body: { from: ctx.options.from, subject: 'no recipient', text: 'x' } });
    checkEnvelope(bad, 'validation_error');
    check(
      bad.body.error.details?.fields?.some((field: any) => field.field === 'to'),
      'the 400 does not name the missing field "to"',
      bad,
    );
    const unknown = await ctx.api.expect(404, 'GET', '/emails/msg_00000000000000000000000000');
    checkEnvelope(unknown, 'not_found');
    const wrongKey = await ctx.api.expect(401, 'GET', '/emails', { key: 'svc_not_a_key_of_this_service' });
    checkEnvelope(wrongKey);
    check(
      Object.keys(wrongKey.body.error).join() === 'message',
      'the 401 body carries more than {"error": {"message"}} (spec, Authentication 2)',
      wrongKey,
    );
  },
};
