/**
 * Answers of GET and PUT /domains/{id}/inbound-routes as the API gives them (each checked against the API's
 * own response schema, so a change of the API's answer fails here first), for the clients' tests against a
 * recorded API (the CLI's and the MCP server's).
 */
import { inboundRoutesViewSchema } from '#functions/api/domains/schemas';

export const DOMAIN_ID = 'dom_01JD8Z6Q0R5M3W2K9X7V4T1B8P';
export const WEBHOOK_IDS = ['wh_01JD8Z6Q0R5M3W2K9X7V4T1B8N', 'wh_01JD8Z6Q0R5M3W2K9X7V4T1B8M'];

/** The account's domains, for a lookup by name. */
export const ROUTES_DOMAIN_LIST_ANSWER = {
  domains: [{ id: DOMAIN_ID, name: 'helpdesk.example', status: 'verified', records: [] }],
  has_more: false,
  next_cursor: null,
};

/** One route of each kind, in order: named endpoints, every endpoint, store, forward, a refusal with and without its own text. */
export const ROUTES_ANSWER = inboundRoutesViewSchema.parse({
  object: 'inbound_routes',
  domain_id: DOMAIN_ID,
  receiving_domain: 'inbound.helpdesk.example',
  routes: [
    { description: 'invoices to the billing app', match: { recipient: 'billing' }, action: { type: 'webhooks', webhook_ids: WEBHOOK_IDS } },
    { match: { recipient: 'support+*', sender: '@customer.example' }, action: { type: 'webhooks' } },
    { match: { recipient: 'newsletter' }, action: { type: 'store' } },
    { match: { recipient: 'invoices' }, action: { type: 'forward', to: ['accounts@example.org'] } },
    { match: { recipient: 'noreply' }, action: { type: 'refuse', message: 'This address does not take replies.' } },
    { match: { recipient: '*', sender: 'spam@bad.example' }, action: { type: 'refuse' } },
  ],
  updated_at: '2026-03-01T10:00:00.000Z',
});

/** The same domain after its routes were removed. */
export const NO_ROUTES_ANSWER = inboundRoutesViewSchema.parse({ ...ROUTES_ANSWER, routes: [], updated_at: '2026-03-02T10:00:00.000Z' });

/** A domain that does not receive mail, as GET answers it: no receiving subdomain, never set. */
export const NOT_RECEIVING_VIEW_ANSWER = inboundRoutesViewSchema.parse({
  object: 'inbound_routes',
  domain_id: DOMAIN_ID,
  receiving_domain: null,
  routes: [],
  updated_at: null,
});

/** PUT's 409 for a domain that does not receive mail (shared/usecases/inbound/inbound-routes.ts). */
export const NOT_RECEIVING_ANSWER = {
  error: {
    code: 'conflict',
    message: `Domain ${DOMAIN_ID} does not receive mail, so it has no routes.`,
    details: { inbound_enabled: false },
    hint: 'Turn receiving on first: PATCH /domains/{id} with {"inbound_enabled": true}.',
  },
};

/** PUT's 400 for a route the API refuses, naming its field. */
export const BAD_ROUTE_ANSWER = {
  error: {
    code: 'validation_error',
    message:
      'match.recipient is a local part without @ (billing), name+* (only tagged addresses), prefix* (starts with) or * (every recipient)',
    details: {
      fields: [
        {
          field: 'routes.0.match.recipient',
          message:
            'match.recipient is a local part without @ (billing), name+* (only tagged addresses), prefix* (starts with) or * (every recipient)',
        },
      ],
    },
  },
};
