/**
 * The Routes section's action (./inbound-routes-section.ts): replaces a receiving domain's inbound routes with
 * the JSON of its textarea, through the use case of PUT /domains/{id}/inbound-routes (putInboundRoutes: the
 * schema, the endpoints' checks, the 409 of a domain that does not receive mail). Saved: back to the domain's
 * page with a notice. Refused (JSON that does not parse, the schema's or the use case's 4xx): the domain's
 * page again with that status, the problem with its field paths, and the JSON as posted, so it can be fixed;
 * nothing is saved. The session middleware refuses a role without `change` (403) before this runs, as for
 * every form (docs/dashboard.md, "Teams and roles"), after the origin and CSRF checks.
 */
import { toPublicDomain } from '#shared/domain/domains/domain';
import { type AppError, ValidationError } from '#shared/domain/errors';
import { inboundRoutesSchema, type InboundRoutesInput } from '#shared/domain/domains/inbound-routes';
import { parseWith } from '#shared/doors/http/request-validation';
import { getDomain } from '#shared/usecases/domains/manage';
import { storedHealthOf } from '#shared/usecases/domains/stored-health';
import { putInboundRoutes, type PublicInboundRoutes } from '#shared/usecases/inbound/inbound-routes';
import { param, problemFlash, redirectTo } from '../dashboard/pages/forms';
import type { PageOptions } from '../dashboard/pages/layout';
import type { PageRoutes } from '../dashboard/pages/page-routes';
import { domainPage, pageParts } from './domain-page';
import { ROUTES_FIELD } from './inbound-routes-section';
import type { DashboardDomainsServices } from './services';

const notJson = (message: string) =>
  new ValidationError(message, { details: { fields: [{ field: ROUTES_FIELD, message: 'not a JSON array of routes' }] } });

/**
 * The textarea's JSON as the use case's input: an array of routes (what the page shows), or the API's body
 * `{"routes": [...]}` pasted as it is; empty is no routes. 400 when it does not parse, or for the schema's
 * problems, each with its field path (`routes.0.match.recipient`, as the API names them).
 */
export function routesInput(form: URLSearchParams): InboundRoutesInput {
  const text = form.get(ROUTES_FIELD) ?? '';
  let value: unknown = [];
  if (text.trim()) {
    try {
      value = JSON.parse(text);
    } catch (error) {
      throw notJson(`The routes are not valid JSON (${(error as Error).message}); nothing was saved.`);
    }
  }
  if (Array.isArray(value)) value = { routes: value };
  else if (value === null || typeof value !== 'object') throw notJson('The routes are a JSON array of routes; nothing was saved.');
  return parseWith(inboundRoutesSchema, value, 'routes');
}

/** The notice after saving. */
function savedText(saved: PublicInboundRoutes): string {
  const count = saved.routes.length;
  return count === 0
    ? `Routes removed: every recipient's mail of ${saved.receiving_domain} goes to every endpoint subscribed to email.received.`
    : `Routes saved: ${count} route${count === 1 ? '' : 's'} for ${saved.receiving_domain}, applied to new mail within a second.`;
}

export function addInboundRoutesAction(routes: PageRoutes<DashboardDomainsServices>): void {
  const { services } = routes;

  routes.action('/domains/:id/inbound-routes', async (c, form) => {
    const id = param(c, 'id');
    const principal = c.get('principal');
    try {
      const saved = await putInboundRoutes(services, principal, id, routesInput(form));
      return redirectTo(c, `/dashboard/domains/${id}`, { kind: 'ok', text: savedText(saved) });
    } catch (error) {
      // A 4xx: the page again with the problem and the JSON as posted (problemFlash throws anything else on, to the error page).
      const flash = problemFlash(error);
      const domain = await getDomain(services, principal, id);
      return domainPage(c, toPublicDomain(domain), null, await pageParts(services, domain, (d) => storedHealthOf(services, d)), {
        flash,
        status: (error as AppError).status as PageOptions['status'],
        routesDraft: form.get(ROUTES_FIELD) ?? '',
      });
    }
  });
}
