/**
 * A receiving domain's routes (shared/domain/domains/inbound-routes.ts; docs/inbound.md, "Routes"): read, and replaced as a
 * whole ordered list. Kept on the domain's item, so the MX listener (at RCPT TO) and the inbound worker read them
 * with the domain they read anyway: no read more per message.
 *
 * A `webhooks` route's endpoints must be the account's, subscribed to email.received and not filtered to tenants
 * (those never get email.received), checked when the list is set: 400 naming the route and the id otherwise. Naming
 * endpoints takes a key of the whole account (webhooks are account-wide); a key limited to the domain's tenant may
 * set the other routes. A `forward` route sends mail from the domain for as long as it stands, so setting one takes a
 * key that may send from the domain itself (`emails:send` or above, the domain within its `allowed_domains`): 403
 * otherwise, as its own send would be.
 */
import type { Domain } from '../../domain/domains/domain';
import { ConflictError, ForbiddenError, InsufficientScopeError, NotFoundError, ValidationError } from '../../domain/errors';
import { covers } from '../../domain/api-keys/scopes';
import type { InboundRoutesInput } from '../../domain/domains/inbound-routes';
import type { Clock } from '../../ports/clock';
import type { DomainRepository } from '../../adapters/store/domains/repository';
import type { WebhookRepository } from '../../adapters/store/webhooks';
import type { Principal } from '../access/principal';
import { requireAccountKey } from '../access/tenant-scope';
import { owned } from '../domains/deps';
import { limitedTenantOf } from '../access/visibility';

export interface InboundRoutesDeps {
  domains: Pick<DomainRepository, 'get' | 'setInboundRoutes'>;
  webhooks: Pick<WebhookRepository, 'get'>;
  clock: Clock;
}

/** The API's view of a domain's routes. */
export function toPublicInboundRoutes(domain: Domain) {
  return {
    object: 'inbound_routes' as const,
    domain_id: domain.id,
    receiving_domain: domain.inbound_subdomain,
    routes: domain.inbound_routes ?? [],
    updated_at: domain.inbound_routes_updated_at ?? null,
  };
}
export type PublicInboundRoutes = ReturnType<typeof toPublicInboundRoutes>;

export async function getInboundRoutes(deps: InboundRoutesDeps, principal: Principal, domainId: string): Promise<PublicInboundRoutes> {
  return toPublicInboundRoutes((await owned(deps, principal, domainId)).domain);
}

const notReceiving = (domainId: string) =>
  new ConflictError(`Domain ${domainId} does not receive mail, so it has no routes.`, 'conflict', {
    details: { inbound_enabled: false },
    hint: 'Turn receiving on first: PATCH /domains/{id} with {"inbound_enabled": true}.',
  });

/** Each endpoint a route names: the account's, subscribed to email.received, not filtered to tenants. */
async function checkEndpoints(deps: InboundRoutesDeps, principal: Principal, input: InboundRoutesInput): Promise<void> {
  const named = input.routes.flatMap((route, index) =>
    route.action.type === 'webhooks'
      ? (route.action.webhook_ids ?? []).map((id, position) => ({ id, field: `routes.${index}.action.webhook_ids.${position}` }))
      : [],
  );
  if (named.length === 0) return;
  requireAccountKey(principal, 'name webhook endpoints in inbound routes');
  const endpoints = new Map(
    await Promise.all([...new Set(named.map(({ id }) => id))].map(async (id) => [id, (await deps.webhooks.get(id))?.endpoint] as const)),
  );
  const fields: { field: string; message: string }[] = [];
  for (const { id, field } of named) {
    const endpoint = endpoints.get(id);
    if (!endpoint || endpoint.account_id !== principal.account.id)
      fields.push({ field, message: `no webhook endpoint ${id} in this account` });
    else if (!endpoint.events.includes('email.received'))
      fields.push({ field, message: `webhook ${id} is not subscribed to email.received; add it to its events first` });
    else if (endpoint.tenants?.length)
      fields.push({ field, message: `webhook ${id} is filtered to tenants, which never receive email.received` });
  }
  if (fields.length) throw new ValidationError(fields[0]!.message, { details: { fields } });
}

/** A forward route sends from the domain: the key must be one that could send from it itself. */
function checkForwards(principal: Principal, domain: Domain, input: InboundRoutesInput): void {
  if (!input.routes.some((route) => route.action.type === 'forward')) return;
  const { scopes, allowed_domains: allowed } = principal.credential;
  if (!covers(scopes, 'emails:send')) throw new InsufficientScopeError(['emails:send'], scopes);
  if (allowed && !allowed.includes(domain.name))
    throw new ForbiddenError(
      `This API key may only send from ${allowed.join(', ')}: a forward route sends from ${domain.name}.`,
      'domain_not_allowed',
      {
        details: { domain: domain.name, allowed_domains: allowed },
        hint: 'Set forward routes with a key that may send from this domain.',
      },
    );
}

/** Replaces the routes ([] removes them): the domain must receive mail (409 otherwise). */
export async function putInboundRoutes(
  deps: InboundRoutesDeps,
  principal: Principal,
  domainId: string,
  input: InboundRoutesInput,
): Promise<PublicInboundRoutes> {
  const { domain } = await owned(deps, principal, domainId);
  if (!domain.inbound_enabled) throw notReceiving(domainId);
  checkForwards(principal, domain, input);
  await checkEndpoints(deps, principal, input);
  const updated = await deps.domains.setInboundRoutes(
    { accountId: principal.account.id, tenantId: limitedTenantOf(principal) },
    domainId,
    input.routes,
    deps.clock.now().toISOString(),
  );
  if (updated) return toPublicInboundRoutes(updated);
  // Changed meanwhile: deleted, moved to another tenant, or receiving turned off.
  const current = await deps.domains.get(domainId);
  if (!current || current.domain.account_id !== principal.account.id) throw new NotFoundError('Domain', domainId);
  throw notReceiving(domainId);
}
