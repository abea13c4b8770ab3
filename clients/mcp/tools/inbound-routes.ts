/**
 * The inbound routes tools (docs/inbound.md, "Routes"): read a receiving domain's routes (GET
 * /domains/{id}/inbound-routes) and replace them as a whole ordered list (PUT). Each takes the domain's id or
 * its name. The routes' argument is the API's own schema (shared/domain/domains/inbound-routes.ts), so the
 * agent is shown every field and a route that breaks a rule is refused before any call. Scopes: reading
 * domains:write, account:read, mail:admin or full; setting domains:write, mail:admin or full.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ApiClient } from '../../api/client';
import {
  getInboundRoutes,
  inboundRoutesLine,
  routeTarget,
  setInboundRoutes,
  WITHOUT_ROUTES,
  type InboundRoute,
  type InboundRoutesView,
} from '../../api/inbound-routes';
import { okResult, runTool } from '../result';
import { inboundRoutesSchema, MAX_INBOUND_ROUTES } from '#shared/domain/domains/inbound-routes';
import { domainArg, domainIdOf } from './domain-ref';

/** How routes match and act, for both tools' descriptions. */
const ROUTES_EXPLAINED = `For each recipient of mail to inbound.<domain>, the first route whose match holds decides. match.recipient: billing (that local part, with or without a +tag), support+* (tagged only), team-* (starts with), * (every recipient: put it last); match.sender (optional): the envelope sender, an address or @example.org (that domain and its subdomains). action: webhooks (email.received only to webhook_ids, endpoints of the account subscribed to email.received and not filtered to tenants; without webhook_ids, every subscribed endpoint), store (recorded, readable with GET /received-emails, no webhook), forward (recorded, no webhook, and sent on to the addresses in to, at most 5, From the domain itself with the original sender in Reply-To; setting one takes a key that may send from the domain) or refuse (550 at RCPT TO with message: the sending server bounces it, nothing is stored). A recipient no route matches: ${WITHOUT_ROUTES}.`;

/** "2. support+* from @customer.example: webhooks (every endpoint subscribed to email.received) - its description" */
function routeLine(route: InboundRoute, index: number): string {
  const sender = route.match.sender ? ` from ${route.match.sender}` : '';
  const target = routeTarget(route);
  const description = route.description ? ` - ${route.description}` : '';
  return `${index + 1}. ${route.match.recipient}${sender}: ${route.action.type}${target ? ` (${target})` : ''}${description}`;
}

/** The line (where, how many, when set), then each route in order. */
export function inboundRoutesSummary(view: InboundRoutesView): string {
  return [`Inbound routes of ${inboundRoutesLine(view)}.`, ...view.routes.map(routeLine)].join('\n');
}

export function registerInboundRoutesTools(server: McpServer, api: ApiClient): void {
  server.registerTool(
    'get_inbound_routes',
    {
      title: "Get a receiving domain's inbound routes",
      description: `Get the inbound routes of the domain's receiving subdomain inbound.<domain> (GET /domains/{id}/inbound-routes), in order, and when they were last set. ${ROUTES_EXPLAINED} A domain that does not receive mail has none (receiving_domain null). Needs domains:write, account:read, mail:admin or full.`,
      inputSchema: { domain: domainArg },
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    (args) =>
      runTool(async () => {
        const view = await getInboundRoutes(api, await domainIdOf(api, args.domain));
        return okResult(inboundRoutesSummary(view), { ...view });
      }),
  );

  server.registerTool(
    'set_inbound_routes',
    {
      title: "Replace a receiving domain's inbound routes",
      description: `Replace the inbound routes of the domain's receiving subdomain with routes, in order (PUT /domains/{id}/inbound-routes): the whole list is replaced, so to add, change or remove one route read get_inbound_routes first and send the full list; [] removes them all. At most ${MAX_INBOUND_ROUTES}. ${ROUTES_EXPLAINED} Applies within a second. 409 conflict when the domain does not receive mail (turn inbound_enabled on first); 400 validation_error naming the route's field (e.g. a webhook not subscribed to email.received). Naming webhook endpoints needs a key of the whole account. Needs domains:write, mail:admin or full.`,
      inputSchema: { domain: domainArg, routes: inboundRoutesSchema.shape.routes },
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
    },
    (args) =>
      runTool(async () => {
        const view = await setInboundRoutes(api, await domainIdOf(api, args.domain), args.routes);
        return okResult(inboundRoutesSummary(view), { ...view });
      }),
  );
}
