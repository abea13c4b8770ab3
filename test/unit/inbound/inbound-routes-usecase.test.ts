/**
 * Setting a receiving domain's routes (shared/usecases/inbound/inbound-routes.ts) with in-memory fakes (end to end:
 * test/integration/inbound-routes.test.ts): naming webhook endpoints takes a key of the whole account (docs/inbound.md,
 * "Routes"), while a key limited to the domain's tenant may set the other routes; each endpoint named must be the
 * account's, subscribed to email.received and not filtered to tenants, every refusal named by its field.
 */
import { ForbiddenError, ValidationError } from '#shared/domain/errors';
import type { InboundRoute } from '#shared/domain/domains/inbound-routes';
import { putInboundRoutes, type InboundRoutesDeps } from '#shared/usecases/inbound/inbound-routes';

const NOW = new Date('2026-11-28T12:00:00.000Z');
const principal = (tenant: string | null, scopes = ['full'], allowedDomains: string[] | null = null) =>
  ({
    account: { id: 'acc_1' },
    credential: { kind: 'api_key', id: 'key_1', scopes, tenant, allowed_domains: allowedDomains },
  }) as never;

function world(endpoints: Record<string, Record<string, unknown>> = {}) {
  const set: { owner: unknown; routes: readonly InboundRoute[] }[] = [];
  const domain = {
    id: 'dom_1',
    name: 'a.test',
    account_id: 'acc_1',
    tenant_id: 'ten_1',
    inbound_enabled: true,
    inbound_subdomain: 'inbound.a.test',
  };
  const deps = {
    domains: {
      get: async () => ({ domain, sealedPrivateKey: 'sealed' }),
      setInboundRoutes: async (owner: unknown, _id: string, routes: readonly InboundRoute[], now: string) => {
        set.push({ owner, routes });
        return { ...domain, inbound_routes: routes, inbound_routes_updated_at: now };
      },
    },
    webhooks: {
      get: async (id: string) =>
        endpoints[id] ? { endpoint: { id, account_id: 'acc_1', events: ['email.received'], tenants: null, ...endpoints[id] } } : null,
    },
    clock: { now: () => NOW },
  } as unknown as InboundRoutesDeps;
  return { deps, set };
}

const store: InboundRoute = { match: { recipient: 'quiet' }, action: { type: 'store' } };
const toEndpoints = (...ids: string[]): InboundRoute => ({
  match: { recipient: 'billing' },
  action: { type: 'webhooks', webhook_ids: ids },
});

const forward: InboundRoute = { match: { recipient: 'billing' }, action: { type: 'forward', to: ['ops@example.org'] } };

describe('putInboundRoutes', () => {
  it('takes a forward route only from a key that may send from the domain, writing nothing otherwise', async () => {
    const { deps, set } = world();
    await expect(putInboundRoutes(deps, principal(null, ['domains:write']), 'dom_1', { routes: [forward] })).rejects.toMatchObject({
      status: 403,
      code: 'insufficient_scope',
    });
    await expect(putInboundRoutes(deps, principal(null, ['full'], ['b.test']), 'dom_1', { routes: [forward] })).rejects.toMatchObject({
      status: 403,
      code: 'domain_not_allowed',
    });
    expect(set).toEqual([]);
    await putInboundRoutes(deps, principal('ten_1', ['domains:write', 'emails:send'], ['a.test']), 'dom_1', { routes: [forward] });
    expect(set.map((write) => write.routes)).toEqual([[forward]]);
  });

  it('lets a key limited to the domain’s tenant set routes that name no endpoint, written as that tenant', async () => {
    const { deps, set } = world();
    const view = await putInboundRoutes(deps, principal('ten_1'), 'dom_1', { routes: [store] });
    expect(view.routes).toEqual([store]);
    expect(set).toEqual([{ owner: { accountId: 'acc_1', tenantId: 'ten_1' }, routes: [store] }]);
  });

  it('refuses a tenant key that names endpoints (403), writing nothing', async () => {
    const { deps, set } = world({ wh_1: {} });
    await expect(putInboundRoutes(deps, principal('ten_1'), 'dom_1', { routes: [toEndpoints('wh_1')] })).rejects.toThrow(ForbiddenError);
    expect(set).toEqual([]);
  });

  it('names each endpoint that is not the account’s, not subscribed to email.received or filtered to tenants', async () => {
    const { deps, set } = world({
      wh_other: { account_id: 'acc_2' },
      wh_quiet: { events: ['email.sent'] },
      wh_tenant: { tenants: ['acme'] },
      wh_ok: {},
    });
    const refused = await putInboundRoutes(deps, principal(null), 'dom_1', {
      routes: [toEndpoints('wh_other', 'wh_quiet', 'wh_ok'), toEndpoints('wh_tenant', 'wh_gone')],
    }).catch((error: ValidationError) => error);
    expect(refused).toBeInstanceOf(ValidationError);
    expect((refused as ValidationError).details).toEqual({
      fields: [
        { field: 'routes.0.action.webhook_ids.0', message: 'no webhook endpoint wh_other in this account' },
        { field: 'routes.0.action.webhook_ids.1', message: expect.stringContaining('not subscribed to email.received') },
        { field: 'routes.1.action.webhook_ids.0', message: expect.stringContaining('filtered to tenants') },
        { field: 'routes.1.action.webhook_ids.1', message: 'no webhook endpoint wh_gone in this account' },
      ],
    });
    expect(set).toEqual([]);
  });
});
