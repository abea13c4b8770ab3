/**
 * A webhook endpoint's life through the public API (docs/webhooks.md). With --webhook-url it is
 * subscribed to `email.delivered`, created before the sends, and the delivery of this run's events is
 * read from the endpoint's own delivery log (GET /webhooks/{id}/deliveries: the service's record of the
 * receiver's answer), so any public receiver works, even one that shows nothing.
 *
 * Without --webhook-url the endpoint needs a URL the deployment accepts: it must be HTTPS and resolve to
 * a public address (the SSRF policy; locally, loopback too). The API's own origin is one on any
 * deployment, so the endpoint points there, subscribed to `contact.unsubscribed` (which this run never
 * causes) and disabled at once: nothing is delivered, and delivery is reported as SKIP.
 */
import { check } from '../client';
import { Skip, type Step } from '../runner';
import { create, removeAtEnd, until } from './common';

function needWebhook(state: Record<string, any>): string {
  if (!state.webhookId) throw new Skip('not run: the endpoint was not created');
  return state.webhookId as string;
}

export const webhookCreate: Step = {
  name: 'a webhook endpoint: create, get, list (POST/GET /webhooks)',
  async run(ctx) {
    const receiver = ctx.options.webhookUrl;
    const url = receiver ?? `${new URL(ctx.options.url).origin.replace(/^http:/, 'https:')}/test-deployed/${ctx.runId}`;
    const events = receiver ? ['email.delivered'] : ['contact.unsubscribed'];
    const created = await create(ctx, 200, '/webhooks', { url, events }, 'webhook endpoint');
    const webhook = created.body.webhook;
    ctx.state.webhookId = webhook.id;
    removeAtEnd(ctx, `webhook ${webhook.id}`, `/webhooks/${webhook.id}`);
    check(/^whsec_/.test(created.body.secret ?? ''), 'POST /webhooks answered no whsec_ signing secret', created);
    check(
      webhook.enabled === true && JSON.stringify(webhook.events) === JSON.stringify(events),
      'the endpoint is not enabled with the events asked for',
      created,
    );
    if (!receiver) {
      const disabled = await ctx.api.expect(200, 'PATCH', `/webhooks/${webhook.id}`, { body: { enabled: false } });
      check(disabled.body.enabled === false, 'PATCH {enabled: false} did not disable the endpoint', disabled);
      ctx.note('no --webhook-url: an endpoint on the API itself, disabled');
    }
    const got = await ctx.api.expect(200, 'GET', `/webhooks/${webhook.id}`);
    check(
      got.body.webhook.id === webhook.id && !('secret' in got.body.webhook),
      'GET /webhooks/{id} answered another endpoint, or its secret',
      got,
    );
    const listed = await ctx.api.expect(200, 'GET', '/webhooks?limit=100');
    check(
      (listed.body.webhooks as any[]).some((one) => one.id === webhook.id),
      'GET /webhooks does not list the endpoint',
      listed,
    );
  },
};

export const webhookDelivery: Step = {
  name: 'the webhook receiver got email.delivered (GET /webhooks/{id}/deliveries)',
  async run(ctx) {
    if (!ctx.options.webhookUrl) throw new Skip('no --webhook-url: give a public HTTPS receiver to check delivery');
    const id = needWebhook(ctx.state);
    if (!ctx.state.delivered) throw new Skip('not run: no email of this run was delivered');
    const delivery = await until(ctx, `a succeeded email.delivered delivery to ${ctx.options.webhookUrl}`, async () => {
      const answer = await ctx.api.expect(200, 'GET', `/webhooks/${id}/deliveries?limit=100`);
      const deliveries = answer.body.deliveries as any[];
      // A receiver that refuses (a non-2xx, a timeout) makes every attempt fail: say so rather than wait.
      const failed = deliveries.find((one) => one.status === 'failed');
      check(!failed, `a delivery to ${ctx.options.webhookUrl} failed: ${JSON.stringify(failed?.attempts?.at(-1))}`, answer);
      return deliveries.find((one) => one.event_type === 'email.delivered' && one.status === 'succeeded');
    });
    const attempt = delivery.attempts?.at(-1);
    ctx.note(`answered ${attempt?.status_code} in ${attempt?.duration_ms} ms`);
  },
};

export const webhookDelete: Step = {
  name: 'the webhook endpoint is deleted (DELETE /webhooks/{id})',
  async run(ctx) {
    const id = needWebhook(ctx.state);
    const deleted = await ctx.api.expect(200, 'DELETE', `/webhooks/${id}`);
    check(deleted.body.ok === true, 'DELETE /webhooks/{id} did not answer {ok: true}', deleted);
    ctx.cleanup.done(`webhook ${id}`);
    await ctx.api.expect(404, 'GET', `/webhooks/${id}`);
  },
};
