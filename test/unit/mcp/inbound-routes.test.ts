/**
 * The inbound routes tools against a fake API (its answers checked against the API's own response schema):
 * get_inbound_routes looks a name up, reads GET /domains/{id}/inbound-routes and sums up each route in order;
 * set_inbound_routes PUTs {routes} and answers the same; a route that breaks the API's rules is refused before
 * any call; the API's 409 is an isError result with its message and hint; an unknown name is not_found.
 */
import { textsOf, withClient } from './fake-api';
import {
  DOMAIN_ID,
  NO_ROUTES_ANSWER,
  NOT_RECEIVING_ANSWER,
  ROUTES_ANSWER,
  ROUTES_DOMAIN_LIST_ANSWER,
} from '../../support/api-answers/inbound-routes';

const ROUTES_PATH = `/domains/${DOMAIN_ID}/inbound-routes`;
const calls = (requests: { method: string; url: URL }[]) => requests.map((request) => `${request.method} ${request.url.pathname}`);

describe('MCP inbound routes tools', () => {
  it('get_inbound_routes looks a name up, reads GET /domains/{id}/inbound-routes and sums up each route in order', async () => {
    const answers = [{ body: ROUTES_DOMAIN_LIST_ANSWER }, { body: ROUTES_ANSWER }, { body: NO_ROUTES_ANSWER }];
    await withClient(
      () => answers.shift()!,
      async ({ call, requests, client }) => {
        const read = await call('get_inbound_routes', { domain: 'Helpdesk.example' });
        expect(read.isError).toBeFalsy();
        expect(calls(requests)).toEqual(['GET /domains', `GET ${ROUTES_PATH}`]);
        expect(textsOf(read)[0]).toBe(
          [
            `Inbound routes of inbound.helpdesk.example (${DOMAIN_ID}): 6 routes, the first that matches decides; set 2026-03-01T10:00:00.000Z.`,
            '1. billing: webhooks (wh_01JD8Z6Q0R5M3W2K9X7V4T1B8N, wh_01JD8Z6Q0R5M3W2K9X7V4T1B8M) - invoices to the billing app',
            '2. support+* from @customer.example: webhooks (every endpoint subscribed to email.received)',
            '3. newsletter: store',
            '4. invoices: forward (to accounts@example.org)',
            '5. noreply: refuse (This address does not take replies.)',
            '6. * from spam@bad.example: refuse (the default refusal)',
          ].join('\n'),
        );
        expect(read.structuredContent).toEqual(ROUTES_ANSWER);
        const none = await call('get_inbound_routes', { domain: DOMAIN_ID });
        expect(requests[2]!.url.pathname).toBe(ROUTES_PATH);
        expect(textsOf(none)[0]).toBe(
          `Inbound routes of inbound.helpdesk.example (${DOMAIN_ID}): no routes: every recipient is recorded and published to every endpoint subscribed to email.received; set 2026-03-02T10:00:00.000Z.`,
        );
        const { tools } = await client.listTools();
        expect(tools.find((tool) => tool.name === 'get_inbound_routes')!.annotations).toMatchObject({ readOnlyHint: true });
      },
    );
  });

  it('set_inbound_routes PUTs {routes} to /domains/{id}/inbound-routes and answers the routes as set; [] removes them; it replaces, so it is destructive', async () => {
    const routes = [
      { match: { recipient: 'billing' }, action: { type: 'webhooks', webhook_ids: ['wh_01JD8Z6Q0R5M3W2K9X7V4T1B8N'] } },
      { description: 'no replies', match: { recipient: 'noreply', sender: '@x.example' }, action: { type: 'refuse', message: 'No.' } },
      { match: { recipient: '*' }, action: { type: 'store' } },
    ];
    const answers = [{ body: ROUTES_ANSWER }, { body: ROUTES_DOMAIN_LIST_ANSWER }, { body: NO_ROUTES_ANSWER }];
    await withClient(
      () => answers.shift()!,
      async ({ call, requests, client }) => {
        const set = await call('set_inbound_routes', { domain: DOMAIN_ID, routes });
        expect(set.isError).toBeFalsy();
        expect(calls(requests)).toEqual([`PUT ${ROUTES_PATH}`]);
        expect(requests[0]!.body).toEqual({ routes });
        expect(textsOf(set)[0]).toMatch(/^Inbound routes of inbound\.helpdesk\.example \(dom_\w+\): 6 routes, /);
        expect(set.structuredContent).toEqual(ROUTES_ANSWER);
        const cleared = await call('set_inbound_routes', { domain: 'helpdesk.example', routes: [] });
        expect(calls(requests).slice(1)).toEqual(['GET /domains', `PUT ${ROUTES_PATH}`]);
        expect(requests[2]!.body).toEqual({ routes: [] });
        expect(cleared.structuredContent).toEqual(NO_ROUTES_ANSWER);
        const { tools } = await client.listTools();
        const tool = tools.find((candidate) => candidate.name === 'set_inbound_routes')!;
        expect(tool.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true, idempotentHint: true });
        expect(tool.inputSchema.required).toEqual(['domain', 'routes']);
        expect(tool.description).toContain('read get_inbound_routes first and send the full list');
      },
    );
  });

  it.each([
    ['a recipient with its domain', [{ match: { recipient: 'billing@helpdesk.example' }, action: { type: 'store' } }]],
    ['an unknown action', [{ match: { recipient: '*' }, action: { type: 'forward' } }]],
    ['a webhook id that is not one', [{ match: { recipient: '*' }, action: { type: 'webhooks', webhook_ids: ['https://x.example'] } }]],
    ['a route without its action', [{ match: { recipient: '*' } }]],
    ['more than 50 routes', Array.from({ length: 51 }, () => ({ match: { recipient: '*' }, action: { type: 'store' } }))],
  ])('set_inbound_routes refuses %s without calling the API', async (_what, routes) => {
    await withClient(
      () => ({ body: ROUTES_ANSWER }),
      async ({ call, requests }) => {
        const refused = await call('set_inbound_routes', { domain: DOMAIN_ID, routes });
        expect(refused.isError).toBe(true);
        expect(requests).toHaveLength(0);
      },
    );
  });

  it("the API's 409 (the domain does not receive mail) is an isError result with its message and hint; an unknown name is not_found before any routes call", async () => {
    const answers = [{ status: 409, body: NOT_RECEIVING_ANSWER }, { body: ROUTES_DOMAIN_LIST_ANSWER }];
    await withClient(
      () => answers.shift()!,
      async ({ call, requests }) => {
        const refused = await call('set_inbound_routes', { domain: DOMAIN_ID, routes: [] });
        expect(refused.isError).toBe(true);
        expect(refused.structuredContent).toMatchObject({
          error: { status: 409, code: 'conflict', message: NOT_RECEIVING_ANSWER.error.message, hint: NOT_RECEIVING_ANSWER.error.hint },
        });
        expect(textsOf(refused)[0]).toBe(
          `Error 409 conflict: ${NOT_RECEIVING_ANSWER.error.message}\nHint: ${NOT_RECEIVING_ANSWER.error.hint}`,
        );
        const unknown = await call('get_inbound_routes', { domain: 'other.example' });
        expect(unknown.isError).toBe(true);
        expect(unknown.structuredContent).toEqual({
          error: { message: 'No domain named other.example in this account (list_domains shows them).', code: 'not_found' },
        });
        expect(calls(requests)).toEqual([`PUT ${ROUTES_PATH}`, 'GET /domains']);
      },
    );
  });
});
