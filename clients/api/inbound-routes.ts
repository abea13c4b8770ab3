/**
 * A receiving domain's inbound routes as the clients read and replace them (GET and PUT
 * /domains/{id}/inbound-routes; docs/inbound.md, "Routes"): the calls, the answer's type and the words both
 * the CLI and the MCP server use to sum a list up. The type comes from the API's own record (a type-only
 * import: nothing of shared/ runs here).
 */
import type { PublicInboundRoutes } from '#shared/usecases/inbound/inbound-routes';
import type { ApiClient } from './client';

export type InboundRoutesView = PublicInboundRoutes;
export type InboundRoute = InboundRoutesView['routes'][number];

const pathOf = (domainId: string) => `/domains/${encodeURIComponent(domainId)}/inbound-routes`;

/** GET /domains/{id}/inbound-routes: the routes in order ([] when none is set). */
export function getInboundRoutes(api: ApiClient, domainId: string): Promise<InboundRoutesView> {
  return api.get<InboundRoutesView>(pathOf(domainId));
}

/** PUT /domains/{id}/inbound-routes: replaces the whole ordered list ([] removes it); 409 when the domain does not receive mail. */
export function setInboundRoutes(api: ApiClient, domainId: string, routes: readonly InboundRoute[]): Promise<InboundRoutesView> {
  return api.request<InboundRoutesView>('PUT', pathOf(domainId), { body: { routes } });
}

/** What happens to mail no route matches, and to every recipient's when there are none. */
export const WITHOUT_ROUTES = 'every recipient is recorded and published to every endpoint subscribed to email.received';

/**
 * "inbound.example.com (dom_01): 2 routes, the first that matches decides; set 2026-03-01T10:00:00.000Z", or
 * what happens without routes. A domain that does not receive mail has no receiving subdomain (and no routes).
 */
export function inboundRoutesLine(view: InboundRoutesView): string {
  const where = view.receiving_domain ? `${view.receiving_domain} (${view.domain_id})` : `${view.domain_id} (does not receive mail)`;
  const count = view.routes.length;
  const what =
    count === 0 ? `no routes: ${WITHOUT_ROUTES}` : `${count} ${count === 1 ? 'route' : 'routes'}, the first that matches decides`;
  return `${where}: ${what}${view.updated_at ? `; set ${view.updated_at}` : ''}`;
}

/** Where a `webhooks` route sends email.received, or a `refuse` route's 550 text; undefined for `store`. */
export function routeTarget(route: InboundRoute): string | undefined {
  switch (route.action.type) {
    case 'webhooks':
      return route.action.webhook_ids?.join(', ') ?? 'every endpoint subscribed to email.received';
    case 'refuse':
      return route.action.message ?? 'the default refusal';
    case 'forward':
      return `to ${route.action.to.join(', ')}`;
    case 'store':
      return undefined;
  }
}
