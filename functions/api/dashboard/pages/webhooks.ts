/**
 * Webhooks: the list and the create form (the signing secret is shown once, in the create's answer);
 * one endpoint's page (enable/disable, delete, rotate the signing secret with an overlap (the new one shown
 * once) and stop the previous one, its delivery log); one delivery's request and response
 * with Replay (with script, through the session door POST /api/webhooks/{id}/deliveries/{delivery_id}/replay:
 * ./doors.ts). Use cases: the webhooks group's (createWebhook, listWebhooks, getWebhook, updateWebhook,
 * deleteWebhook, listWebhookDeliveries, getWebhookDelivery, replayWebhookDelivery).
 */
import { EVENT_TYPES } from '#shared/domain/webhooks/event-types';
import { toPublicDelivery, type WebhookDelivery } from '#shared/domain/webhooks/delivery';
import { toPublicWebhook, type WebhookEndpoint } from '#shared/domain/webhooks/endpoint';
import { createWebhookSchema, updateWebhookSchema } from '#shared/domain/webhooks/schemas';
import {
  DEFAULT_SECRET_OVERLAP_SECONDS,
  MAX_SECRET_OVERLAP_SECONDS,
  previousSecretSigns,
  rotateWebhookSecretSchema,
} from '#shared/domain/webhooks/secret-rotation';
import { expirePreviousWebhookSecret, rotateWebhookSecret } from '#shared/usecases/webhooks/rotate-secret';
import { parseWith } from '#shared/doors/http/request-validation';
import {
  createWebhook,
  deleteWebhook,
  getWebhook,
  getWebhookDelivery,
  listWebhookDeliveries,
  listWebhooks,
  replayWebhookDelivery,
  updateWebhook,
} from '#shared/usecases/webhooks/webhooks';
import {
  buttonForm,
  checkboxes,
  field,
  formAction,
  input,
  pager,
  pageRequest,
  pageState,
  postForm,
  redirectTo,
  render,
  secretBox,
  select,
  type PageContext,
  param,
} from './forms';
import { doorAttributes } from './doors';
import type { PageRoutes } from './page-routes';
import type { DashboardServices } from '../services';
import { badge, html, json, table, time } from './layout';
import { recordCreated } from '#shared/doors/http/created-ids';

/** The overlaps the rotate form offers (the API takes any number of seconds up to 7 days). */
const OVERLAP_CHOICES = [
  { value: '0', label: 'no time: stop it at once' },
  { value: '3600', label: '1 hour' },
  { value: String(DEFAULT_SECRET_OVERLAP_SECONDS), label: '24 hours' },
  { value: String(3 * 86_400), label: '3 days' },
  { value: String(MAX_SECRET_OVERLAP_SECONDS), label: '7 days' },
];

/** What the page says after a replay, from the page action or the page script (the door). */
const REPLAYED = 'Replayed: the delivery is queued again.';

function lastAttempt(delivery: WebhookDelivery) {
  return delivery.attempts[delivery.attempts.length - 1] ?? null;
}

/** The endpoint `id` (just created: with its secret, shown once) and a page of its deliveries, read together. */
async function webhookPage(
  services: DashboardServices,
  c: PageContext,
  id: string,
  created: { webhook: WebhookEndpoint; secret: string; rotated?: boolean } | null,
): Promise<Response> {
  const state = created ? {} : pageState(c);
  const principal = c.get('principal');
  const [endpoint, page] = await Promise.all([
    created?.webhook ?? getWebhook(services, principal, id),
    listWebhookDeliveries(services, principal, id, pageRequest(state)),
  ]);
  const webhook = toPublicWebhook(endpoint);
  const secret = created?.secret ?? null;
  const rows = page.items.map((delivery) => {
    const attempt = lastAttempt(delivery);
    return html`<tr><td id="d-${delivery.id}">${delivery.event_type}</td><td>${badge(delivery.status)}</td><td>${attempt?.status_code ?? (attempt?.error ? 'none' : '—')}</td><td>${time(delivery.created_at)}</td><td><a href="/dashboard/webhooks/${webhook.id}/deliveries/${delivery.id}" aria-describedby="d-${delivery.id}">View</a></td></tr>`;
  });
  const secretNote = created?.rotated
    ? 'The new signing secret. Copy it now: it is shown only this once. Until the previous secret stops (below), every delivery is signed with both, so switch your receiver to this one whenever you deploy (docs/webhooks.md, "Rotating the secret").'
    : 'Verify every delivery with this secret (Standard Webhooks signatures: docs/webhooks.md). Copy it now: it is shown only this once.';
  const previousSigns = previousSecretSigns(endpoint, services.clock.now());
  const body = html`${secret ? secretBox(created?.rotated ? 'New signing secret' : 'Signing secret', secret, secretNote) : ''}
<dl class="facts"><dt>ID</dt><dd><code>${webhook.id}</code></dd><dt>Endpoint</dt><dd>${webhook.url}</dd><dt>State</dt><dd>${badge(webhook.enabled ? 'enabled' : 'disabled')}</dd><dt>Events</dt><dd>${webhook.events.join(', ')}</dd>${webhook.tenants ? html`<dt>Tenants</dt><dd>${webhook.tenants.join(', ')}</dd>` : ''}<dt>Created</dt><dd>${time(webhook.created_at)}</dd><dt>Secret rotated</dt><dd id="secret-rotated">${webhook.secret_rotated_at ? time(webhook.secret_rotated_at) : 'never'}</dd><dt>Previous secret</dt><dd id="previous-secret">${previousSigns ? html`signs too until ${time(webhook.previous_secret_expires_at)}` : 'none signing'}</dd></dl>
<div class="actions">${buttonForm(c, `/dashboard/webhooks/${webhook.id}/enabled`, webhook.enabled ? 'Disable' : 'Enable', { hidden: { enabled: webhook.enabled ? 'false' : 'true' }, className: 'secondary' })} ${buttonForm(c, `/dashboard/webhooks/${webhook.id}/delete`, 'Delete webhook', { className: 'danger' })}</div>
<section aria-labelledby="rotate-heading"><h2 id="rotate-heading">Signing secret</h2>${postForm(
    c,
    `/dashboard/webhooks/${webhook.id}/secret`,
    html`${select('Keep the previous secret signing for', 'overlap_seconds', OVERLAP_CHOICES, String(DEFAULT_SECRET_OVERLAP_SECONDS))}<p><button type="submit" class="secondary">Rotate secret</button></p>`,
  )}${previousSigns ? html`<div class="actions">${buttonForm(c, `/dashboard/webhooks/${webhook.id}/secret/previous`, 'Stop the previous secret now', { className: 'danger' })}</div>` : ''}</section>
<section aria-labelledby="deliveries-heading"><h2 id="deliveries-heading">Deliveries</h2>
${table('Deliveries, newest first', ['Event', 'Status', 'Response code', 'Time', 'Details'], rows, 'No deliveries yet.')}
${pager(`/dashboard/webhooks/${webhook.id}`, {}, state, page.next_cursor)}</section>`;
  return render(c, { title: webhook.url, lead: html`<p><a href="/dashboard/webhooks">← All webhooks</a></p>`, body });
}

/** The endpoints, newest first, and the form that adds one. */
async function webhookListPage(services: DashboardServices, c: PageContext): Promise<Response> {
  const state = pageState(c);
  const page = await listWebhooks(services, c.get('principal'), pageRequest(state));
  const rows = page.items
    .map(toPublicWebhook)
    .map(
      (webhook) =>
        html`<tr><td><a href="/dashboard/webhooks/${webhook.id}">${webhook.url}</a></td><td>${badge(webhook.enabled ? 'enabled' : 'disabled')}</td><td>${webhook.events.length === EVENT_TYPES.length ? 'all' : webhook.events.join(', ')}</td><td>${time(webhook.created_at)}</td></tr>`,
    );
  const body = html`<section aria-labelledby="create-heading"><h2 id="create-heading">Add an endpoint</h2>${postForm(
    c,
    '/dashboard/webhooks',
    html`${input('Endpoint URL', 'url', { type: 'url', required: true, placeholder: 'https://example.com/webhooks' })}${checkboxes('Events', 'events', EVENT_TYPES, () => true)}<p><button type="submit">Create webhook</button></p>`,
  )}</section>
<h2>Endpoints</h2>${table('Webhook endpoints, newest first', ['Endpoint', 'State', 'Events', 'Created'], rows, 'No webhooks yet.')}
${pager('/dashboard/webhooks', {}, state, page.next_cursor)}`;
  return render(c, { title: 'Webhooks', body });
}

/** One delivery: its request, each attempt's response, and Replay. */
async function deliveryPage(services: DashboardServices, c: PageContext): Promise<Response> {
  const principal = c.get('principal');
  const [endpoint, delivery] = await Promise.all([
    getWebhook(services, principal, param(c, 'id')),
    getWebhookDelivery(services, principal, param(c, 'id'), param(c, 'deliveryId')),
  ]);
  const webhook = toPublicWebhook(endpoint);
  const view = toPublicDelivery(delivery);
  const attempts = delivery.attempts.map(
    (attempt) =>
      html`<tr><td class="num">${attempt.attempt}</td><td>${time(attempt.at)}</td><td>${attempt.status_code ?? 'none'}</td><td class="num">${attempt.duration_ms} ms</td><td>${attempt.error ?? ''}${attempt.response_excerpt ? html`<pre>${attempt.response_excerpt}</pre>` : ''}</td></tr>`,
  );
  const replayable = delivery.status === 'failed' || delivery.status === 'cancelled';
  const body = html`<dl class="facts"><dt>Delivery</dt><dd><code>${delivery.id}</code></dd><dt>Event</dt><dd>${delivery.event_type} <span class="muted">(${delivery.event_id})</span></dd><dt>Status</dt><dd id="delivery-status">${badge(delivery.status)}</dd><dt>Next attempt</dt><dd id="delivery-next">${time(delivery.next_attempt_at)}</dd></dl>
<div class="actions">${buttonForm(c, `/dashboard/webhooks/${webhook.id}/deliveries/${delivery.id}/replay`, 'Replay', {
    // The session door when the page script runs; the page action without it.
    attributes: doorAttributes({ route: `/webhooks/${webhook.id}/deliveries/${delivery.id}/replay`, kind: 'replay', done: REPLAYED }),
  })} <span class="hint">${replayable ? 'Sends it again, with a fresh retry schedule.' : 'Only a failed or cancelled delivery can be replayed.'}</span></div>
<section aria-labelledby="request-heading"><h2 id="request-heading">Request</h2><p><code>POST ${webhook.url}</code>, signed with the endpoint's secret (webhook-id, webhook-timestamp and webhook-signature headers). Body:</p><pre>${json(view.payload)}</pre></section>
<section aria-labelledby="response-heading"><h2 id="response-heading">Response</h2>${table('Attempts, first to last', ['Attempt', 'Time', 'Status code', 'Duration', 'Error or response body (first 500 characters)'], attempts, 'Not attempted yet.')}</section>`;
  return render(c, {
    title: `${delivery.event_type} delivery`,
    lead: html`<p><a href="/dashboard/webhooks/${webhook.id}">← ${webhook.url}</a></p>`,
    body,
  });
}

/** The list and the create action (its answer: the new endpoint's page, with its secret). */
function addWebhookListPages(routes: PageRoutes): void {
  const { services } = routes;

  routes.page('/webhooks', (c) => webhookListPage(services, c));

  routes.action('/webhooks', (c, form) =>
    formAction(c, '/dashboard/webhooks', async () => {
      const input = parseWith(createWebhookSchema, { url: field(form, 'url') ?? '', events: form.getAll('events') });
      const { webhook, secret } = await createWebhook(services, c.get('principal'), input);
      recordCreated(c, 'id', webhook.id);
      return webhookPage(services, c, webhook.id, { webhook, secret });
    }),
  );
}

/** One endpoint's page, enable/disable and delete. */
function addWebhookEndpointPages(routes: PageRoutes): void {
  const { services } = routes;

  routes.page('/webhooks/:id', (c) => webhookPage(services, c, param(c, 'id'), null));

  routes.action('/webhooks/:id/enabled', (c, form) => {
    const back = `/dashboard/webhooks/${param(c, 'id')}`;
    return formAction(c, back, async () => {
      const enabled = field(form, 'enabled') === 'true';
      await updateWebhook(services, c.get('principal'), param(c, 'id'), parseWith(updateWebhookSchema, { enabled }));
      return redirectTo(c, back, {
        kind: 'ok',
        text: enabled ? 'Webhook enabled.' : 'Webhook disabled: no events are sent to it until it is enabled again.',
      });
    });
  });

  routes.action('/webhooks/:id/secret', (c, form) =>
    formAction(c, `/dashboard/webhooks/${param(c, 'id')}`, async () => {
      const input = parseWith(rotateWebhookSecretSchema, {
        overlap_seconds: Number(field(form, 'overlap_seconds') ?? DEFAULT_SECRET_OVERLAP_SECONDS),
      });
      const { webhook, secret } = await rotateWebhookSecret(services, c.get('principal'), param(c, 'id'), input);
      return webhookPage(services, c, webhook.id, { webhook, secret, rotated: true });
    }),
  );

  routes.action('/webhooks/:id/secret/previous', (c) => {
    const back = `/dashboard/webhooks/${param(c, 'id')}`;
    return formAction(c, back, async () => {
      await expirePreviousWebhookSecret(services, c.get('principal'), param(c, 'id'));
      return redirectTo(c, back, { kind: 'ok', text: 'The previous secret no longer signs: deliveries carry the current secret only.' });
    });
  });

  routes.action('/webhooks/:id/delete', (c) =>
    formAction(c, `/dashboard/webhooks/${param(c, 'id')}`, async () => {
      await deleteWebhook(services, c.get('principal'), param(c, 'id'));
      return redirectTo(c, '/dashboard/webhooks', { kind: 'ok', text: 'Webhook deleted.' });
    }),
  );
}

/** One delivery's page and its Replay action. */
function addDeliveryPages(routes: PageRoutes): void {
  const { services } = routes;

  routes.page('/webhooks/:id/deliveries/:deliveryId', (c) => deliveryPage(services, c));

  routes.action('/webhooks/:id/deliveries/:deliveryId/replay', (c) => {
    const back = `/dashboard/webhooks/${param(c, 'id')}/deliveries/${param(c, 'deliveryId')}`;
    return formAction(c, back, async () => {
      await replayWebhookDelivery(services, c.get('principal'), param(c, 'id'), param(c, 'deliveryId'));
      return redirectTo(c, back, { kind: 'ok', text: REPLAYED });
    });
  });
}

export function addWebhookPages(routes: PageRoutes): void {
  addWebhookListPages(routes);
  addWebhookEndpointPages(routes);
  addDeliveryPages(routes);
}
