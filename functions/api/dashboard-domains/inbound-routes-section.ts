/**
 * The domain page's Routes section (docs/inbound.md, "Routes"), for a domain that receives mail: its ordered
 * inbound routes as a table (or that there are none), a short help on the patterns and actions, and, for the
 * roles that may change the mail setup (docs/dashboard.md, "Teams and roles": `change`), a form that replaces
 * them: the list as JSON in a textarea, posted to ./inbound-routes-action.ts. Descriptions, patterns and
 * refusal messages are the user's: interpolated (escaped), never markup, in the table and in the textarea.
 */
import { can, type DashboardRole } from '#shared/domain/dashboard/roles';
import { DEFAULT_REFUSAL, MAX_INBOUND_ROUTES, type InboundRoute } from '#shared/domain/domains/inbound-routes';
import type { PublicInboundRoutes } from '#shared/usecases/inbound/inbound-routes';
import { postForm, textarea, type PageContext } from '../dashboard/pages/forms';
import { html, table, time, type Html } from '../dashboard/pages/layout';

/** The form's field: the routes as JSON (an array, or the API's body `{"routes": [...]}`). */
export const ROUTES_FIELD = 'routes';

/** Where the form posts (the action's path under /dashboard). */
export const routesActionPath = (domainId: string) => `/dashboard/domains/${domainId}/inbound-routes`;

/** The routes as the textarea shows them: the list, pretty-printed. */
export const routesJson = (routes: readonly InboundRoute[]) => JSON.stringify(routes, null, 2);

/** What an action does to the mail, in a word or two. */
const ACTION_LABELS: Record<InboundRoute['action']['type'], string> = {
  webhooks: 'webhooks',
  store: 'store only',
  forward: 'forward',
  refuse: 'refuse (550)',
};

/** The endpoints a route publishes to, the addresses it forwards to, or the text it refuses with. */
function actionDetail(action: InboundRoute['action']): Html {
  switch (action.type) {
    case 'webhooks':
      return action.webhook_ids
        ? html`${action.webhook_ids.map((id, index) => html`${index ? ', ' : ''}<a href="/dashboard/webhooks/${id}"><code>${id}</code></a>`)}`
        : html`every endpoint subscribed to <code>email.received</code>`;
    case 'refuse':
      return action.message ? html`${action.message}` : html`${DEFAULT_REFUSAL} <span class="muted">(default)</span>`;
    case 'store':
      return html`<span class="muted">no webhook (received emails only)</span>`;
    case 'forward':
      return html`to ${action.to.map((address, index) => html`${index ? ', ' : ''}<code>${address}</code>`)}`;
  }
}

function routesTable(view: PublicInboundRoutes): Html {
  return table(
    `Routes of ${view.receiving_domain ?? 'the receiving subdomain'}, in order: the first whose match holds for a recipient decides`,
    ['#', 'Recipient', 'Sender', 'Action', 'Endpoints or message', 'Description'],
    view.routes.map(
      (route, index) =>
        html`<tr><th scope="row">${index + 1}</th><td><code>${route.match.recipient}</code></td><td>${route.match.sender ? html`<code>${route.match.sender}</code>` : html`<span class="muted">any</span>`}</td><td>${ACTION_LABELS[route.action.type]}</td><td>${actionDetail(route.action)}</td><td>${route.description ?? ''}</td></tr>`,
    ),
    "No routes: every recipient's mail goes to every endpoint subscribed to email.received.",
  );
}

/** The four recipient patterns and three actions, in short (docs/inbound.md has the rest). */
const HELP = html`<div class="hint"><p>A route is <code>{"description": "...", "match": {"recipient": "...", "sender": "..."}, "action": {...}}</code> (description and sender optional); at most ${MAX_INBOUND_ROUTES}, in order: the first whose match holds for a recipient decides (docs/inbound.md, "Routes").</p>
<ul><li><code>billing</code>: that local part, with or without a +tag (billing@, billing+42@)</li><li><code>support+*</code>: that local part with a +tag only</li><li><code>team-*</code>: local parts that start with team-</li><li><code>*</code>: every recipient (a catch-all: put it last)</li></ul>
<p><code>sender</code>: the envelope sender, an address (<code>a@example.org</code>) or <code>@example.org</code> (that domain and its subdomains).</p>
<ul><li><code>{"type": "webhooks", "webhook_ids": ["wh_..."]}</code>: email.received to those endpoints only (subscribed to it); without <code>webhook_ids</code>, to every subscribed endpoint</li><li><code>{"type": "store"}</code>: recorded, no webhook</li><li><code>{"type": "refuse", "message": "..."}</code>: refused at RCPT TO with a 550 and the message; nothing stored</li></ul></div>`;

/**
 * The section, or nothing for a domain that does not receive mail (`view` null). `draft`: the JSON a save
 * that failed was posted with, shown again in the textarea instead of the stored list.
 */
export function inboundRoutesSection(c: PageContext, domainId: string, view: PublicInboundRoutes | null, draft?: string): Html | '' {
  if (!view) return '';
  const role: DashboardRole = c.get('session').user.role;
  const updated = view.updated_at ? html` Last changed ${time(view.updated_at)}.` : '';
  const text = draft ?? routesJson(view.routes);
  const form = can(role, 'change')
    ? postForm(
        c,
        routesActionPath(domainId),
        html`${textarea('Routes (JSON)', ROUTES_FIELD, {
          value: text,
          // Tall enough for a few routes without scrolling, never the whole page.
          rows: Math.min(24, Math.max(6, text.split('\n').length + 1)),
          hint: 'The whole ordered list, replaced as a whole: [] (or empty) removes every route.',
        })}<p><button type="submit">Save routes</button></p>`,
      )
    : html`<p class="muted">Your role (${role}) cannot change the routes: owners, admins and developers can.</p>`;
  return html`<section aria-labelledby="routes-heading"><h2 id="routes-heading">Routes</h2>
<p>Mail to <code>${view.receiving_domain ?? ''}</code>, per recipient.${updated}</p>
${routesTable(view)}
${form}
${HELP}</section>`;
}
