/**
 * Webhook endpoints: create (the signing secret shown once, stored sealed), list, read, change, delete;
 * the delivery log of an endpoint and replaying a failed or cancelled delivery.
 *
 * A URL is checked when it is set (create, or PATCH url): HTTPS, the syntactic SSRF rules
 * (shared/domain/webhooks/ssrf.ts), then every address its host resolves to, through the product's resolvers
 * (DNS_RESOLVERS), must be allowed by the policy (public only; loopback too on the local cloud). The
 * delivery worker checks again before each attempt (DNS can change).
 */
import { ConflictError, ForbiddenError, NotFoundError, ServiceUnavailableError, ValidationError } from '../../domain/errors';
import { newId } from '../../domain/ids';
import type { WebhookDelivery } from '../../domain/webhooks/delivery';
import { MAX_WEBHOOKS_PER_ACCOUNT, webhookSecretContext, withoutTenant, type WebhookEndpoint } from '../../domain/webhooks/endpoint';
import type { Tenant } from '../../domain/tenants/tenant';
import { EVENT_TYPES } from '../../domain/webhooks/event-types';
import { httpsNeeded, type CreateWebhookInput, type UpdateWebhookInput } from '../../domain/webhooks/schemas';
import { logError } from '../../lib/log';
import type { Clock } from '../../ports/clock';
import type { HostResolver } from '../../ports/dns';
import type { WebhookDeliveryQueue } from '../../ports/queues';
import type { SecretBox } from '../../ports/secret-box';
import type { Page } from '../../adapters/store/cursor';
import type { PageRequest } from '../../adapters/store/paginate';
import type { WebhookDeliveryRepository } from '../../adapters/store/webhook-deliveries';
import type { TenantRepository } from '../../adapters/store/tenants';
import type { StoredWebhook, WebhookChanges, WebhookRepository } from '../../adapters/store/webhooks';
import { generateWebhookSecret } from '../../domain/webhooks/signing';
import { checkWebhookUrl, classifyAddress, isForbiddenAddress, type SsrfPolicy } from '../../domain/webhooks/ssrf';
import type { Principal } from '../access/principal';
import { requireAccountKey, resolveTenant, type TenantScopeDeps } from '../access/tenant-scope';
import { assertVisible } from '../access/visibility';

export interface WebhookDeps {
  webhooks: WebhookRepository;
  tenants: TenantScopeDeps['tenants'];
  webhookDeliveries: WebhookDeliveryRepository;
  webhookDeliveryQueue: WebhookDeliveryQueue;
  secretBox: SecretBox;
  /** Resolves URL hosts through the product's resolvers (DNS_RESOLVERS). */
  dns: HostResolver;
  webhookPolicy: SsrfPolicy;
  clock: Clock;
}

/** What creating an endpoint uses (imports create endpoints too: shared/usecases/imports). */
export type CreateWebhookDeps = Pick<WebhookDeps, 'webhooks' | 'tenants' | 'secretBox' | 'dns' | 'webhookPolicy' | 'clock'>;

function urlRefused(message: string, reason: string): ValidationError {
  return new ValidationError(message, {
    details: { fields: [{ field: 'url', message }], reason },
    hint: 'Webhook URLs must be HTTPS and reach a public address on the internet.',
  });
}

/** The SSRF policy at the time a URL is set: refused with 400 at `url`, saying why. */
async function checkUrl(deps: Pick<WebhookDeps, 'dns' | 'webhookPolicy'>, url: string): Promise<void> {
  const check = checkWebhookUrl(url, deps.webhookPolicy);
  if (!check.ok) throw urlRefused(`url is refused: ${check.reason}.`, 'forbidden_url');
  const host = check.url.hostname.replace(/\.$/, '');
  let addresses: string[];
  try {
    addresses = await deps.dns.resolveAddresses(host);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'ERROR';
    throw urlRefused(`url is refused: the host ${host} could not be resolved (${code}). Check its DNS and retry.`, 'dns_failure');
  }
  if (addresses.length === 0)
    throw urlRefused(`url is refused: the host ${host} does not resolve to any address (no A or AAAA record).`, 'unresolvable_host');
  const forbidden = addresses.find((address) => isForbiddenAddress(address, deps.webhookPolicy));
  if (forbidden !== undefined) {
    // The address itself is not echoed: it could reveal internal DNS.
    throw urlRefused(
      `url is refused: the host ${host} resolves to a ${classifyAddress(forbidden)} address; webhooks only reach public addresses.`,
      'forbidden_address',
    );
  }
}

/** Webhooks are account-wide: a key limited to a tenant may not manage them (spec, Authentication 3). */
export function accountKeyOnly(principal: Principal): void {
  requireAccountKey(principal, 'manage webhooks');
}

/**
 * Each named tenant must exist (403 tenants_not_enabled / 404 from the shared tenant check); [] is no
 * filter. The filter keeps external_ids (unique per account, immutable), as email events name their
 * tenant; the tenants themselves go to the store, which writes the filter only while each is live.
 */
async function resolveTenants(deps: TenantScopeDeps, principal: Principal, names: string[] | null | undefined): Promise<Tenant[] | null> {
  if (!names || names.length === 0) return null;
  const resolved = new Map<string, Tenant>();
  for (const name of names) {
    const tenant = (await resolveTenant(deps, principal, name, { field: 'tenants' }))!;
    resolved.set(tenant.id, tenant);
  }
  return [...resolved.values()];
}

/** A tenant the filter named began its deletion before the filter was written: as if it had not been found. */
const tenantGone = (tenant: Pick<Tenant, 'external_id'>) => new NotFoundError('Tenant', tenant.external_id);

/** `options.enabled` false: created disabled (imports: enabled by the user once their endpoint checks our signature). */
export async function createWebhook(
  deps: CreateWebhookDeps,
  principal: Principal,
  input: CreateWebhookInput,
  options: { enabled?: boolean } = {},
): Promise<{ webhook: WebhookEndpoint; secret: string }> {
  accountKeyOnly(principal);
  const tenants = await resolveTenants(deps, principal, input.tenants);
  const delivery = input.delivery ?? 'push';
  // A pull endpoint's URL is where its listener forwards, on the listener's machine: never requested here.
  if (delivery === 'push') await checkUrl(deps, input.url);
  const now = deps.clock.now();
  const webhook: WebhookEndpoint = {
    id: newId('wh', now.getTime()),
    account_id: principal.account.id,
    url: input.url,
    events: input.events ?? [...EVENT_TYPES],
    enabled: options.enabled ?? true,
    delivery,
    last_pulled_at: null,
    tenants: tenants?.map((tenant) => tenant.external_id) ?? null,
    secret_rotated_at: null,
    previous_secret_expires_at: null,
    created_at: now.toISOString(),
    updated_at: now.toISOString(),
  };
  const secret = generateWebhookSecret();
  const sealed = await deps.secretBox.seal(secret, webhookSecretContext(webhook.id));
  const outcome = await deps.webhooks.create(webhook, sealed, MAX_WEBHOOKS_PER_ACCOUNT, tenants ?? []);
  if (!outcome.ok && outcome.reason === 'tenant_gone') throw tenantGone(outcome.tenant);
  if (!outcome.ok) {
    throw new ForbiddenError(
      `An account can have at most ${MAX_WEBHOOKS_PER_ACCOUNT} webhook endpoints; delete one to add another.`,
      'limit_exceeded',
      {
        details: { limit: MAX_WEBHOOKS_PER_ACCOUNT, resource: 'webhooks' },
        hint: 'One endpoint can subscribe to many event types: list them in events instead of adding endpoints.',
      },
    );
  }
  return { webhook, secret };
}

export async function owned(
  deps: { webhooks: Pick<WebhookRepository, 'get'> },
  principal: Principal,
  webhookId: string,
): Promise<StoredWebhook> {
  accountKeyOnly(principal);
  const stored = await deps.webhooks.get(webhookId);
  assertVisible(principal, stored?.endpoint, 'Webhook', webhookId);
  return stored!;
}

export async function getWebhook(deps: WebhookDeps, principal: Principal, webhookId: string): Promise<WebhookEndpoint> {
  return (await owned(deps, principal, webhookId)).endpoint;
}

export function listWebhooks(deps: WebhookDeps, principal: Principal, page: PageRequest): Promise<Page<WebhookEndpoint>> {
  accountKeyOnly(principal);
  return deps.webhooks.list(principal.account.id, page);
}

export async function updateWebhook(
  deps: WebhookDeps,
  principal: Principal,
  webhookId: string,
  input: UpdateWebhookInput,
): Promise<WebhookEndpoint> {
  accountKeyOnly(principal);
  // An unknown id is 404 before any other answer about the body's values.
  const before = (await owned(deps, principal, webhookId)).endpoint;
  const changes: WebhookChanges = { events: input.events, enabled: input.enabled };
  const tenants = input.tenants === undefined ? undefined : await resolveTenants(deps, principal, input.tenants);
  if (input.url !== undefined) {
    if (before.delivery === 'push') {
      const refused = httpsNeeded(input.url);
      if (refused) throw urlRefused(refused, 'forbidden_url');
      await checkUrl(deps, input.url);
    }
    changes.url = input.url;
  }
  const now = deps.clock.now().toISOString();
  let updated: WebhookEndpoint | null;
  if (tenants) {
    const outcome = await deps.webhooks.setTenantFilter(principal.account.id, webhookId, changes, tenants, now);
    if (outcome.kind === 'tenant_gone') throw tenantGone(outcome.tenant);
    updated = outcome.kind === 'updated' ? outcome.endpoint : null;
  } else {
    updated = await deps.webhooks.update(
      principal.account.id,
      webhookId,
      { ...changes, ...(tenants === null ? { tenants: null } : {}) },
      now,
    );
  }
  if (!updated) throw new NotFoundError('Webhook', webhookId);
  if (tenants !== undefined) await forgetDroppedTenants(deps, before, updated);
  return updated;
}

/** Tenants a change took out of the filter no longer list the endpoint (best effort: see forgetTenantRefs). */
async function forgetDroppedTenants(
  deps: Pick<WebhookDeps, 'webhooks'>,
  before: WebhookEndpoint,
  after: Pick<WebhookEndpoint, 'tenants'> | null,
): Promise<void> {
  const dropped = (before.tenants ?? []).filter((name) => !(after?.tenants ?? []).includes(name));
  if (dropped.length === 0) return;
  await deps.webhooks
    .forgetTenantRefs(before.account_id, dropped, before.id)
    .catch((error) => logError('webhook: could not forget its former tenants', error, { webhook_id: before.id }));
}

/** Deletes the endpoint; its pending retries stop (the delivery worker finds it gone). */
export async function deleteWebhook(deps: WebhookDeps, principal: Principal, webhookId: string): Promise<void> {
  accountKeyOnly(principal);
  const stored = await deps.webhooks.get(webhookId);
  if (!(await deps.webhooks.delete(principal.account.id, webhookId))) throw new NotFoundError('Webhook', webhookId);
  if (stored) await forgetDroppedTenants(deps, stored.endpoint, null);
}

export async function listWebhookDeliveries(
  deps: WebhookDeps,
  principal: Principal,
  webhookId: string,
  page: PageRequest,
): Promise<Page<WebhookDelivery>> {
  await owned(deps, principal, webhookId);
  return deps.webhookDeliveries.list(webhookId, page);
}

export async function getWebhookDelivery(
  deps: WebhookDeps,
  principal: Principal,
  webhookId: string,
  deliveryId: string,
): Promise<WebhookDelivery> {
  await owned(deps, principal, webhookId);
  const delivery = await deps.webhookDeliveries.get(webhookId, deliveryId);
  return assertVisible(principal, delivery, 'Webhook delivery', deliveryId);
}

function notReplayable(delivery: WebhookDelivery, endpoint: Pick<WebhookEndpoint, 'delivery'>): ConflictError {
  if (endpoint.delivery === 'pull')
    return new ConflictError(
      `Delivery ${delivery.id} is still in the feed, waiting for the listener's report; it is replayed once reported.`,
      'conflict',
      { details: { status: delivery.status } },
    );
  const why =
    delivery.status === 'pending'
      ? 'is still pending (being delivered or waiting for a retry); wait for it to finish'
      : delivery.status === 'succeeded'
        ? 'already succeeded (the endpoint answered 2xx), so it is not sent again'
        : `is ${delivery.status}`;
  return new ConflictError(`Delivery ${delivery.id} ${why}. Only failed or cancelled deliveries can be replayed.`, 'conflict', {
    details: { status: delivery.status },
  });
}

/**
 * Sends a failed or cancelled delivery again: back to pending (its attempt log kept) and one message on
 * the deliveries queue for the next attempt. Only while the endpoint is enabled. If the message cannot
 * be queued the delivery returns to its previous status and the answer is 503. A pull endpoint's delivery,
 * whatever its listener answered (succeeded too), goes back to the end of the endpoint's feed instead.
 */
export async function replayWebhookDelivery(
  deps: WebhookDeps,
  principal: Principal,
  webhookId: string,
  deliveryId: string,
): Promise<WebhookDelivery> {
  const { endpoint } = await owned(deps, principal, webhookId);
  const delivery = await getWebhookDelivery(deps, principal, webhookId, deliveryId);
  const pull = endpoint.delivery === 'pull';
  const replayable = delivery.status === 'failed' || delivery.status === 'cancelled' || (pull && delivery.status === 'succeeded');
  if (!replayable) throw notReplayable(delivery, endpoint);
  if (!endpoint.enabled) {
    throw new ConflictError(`Webhook ${webhookId} is disabled, so its deliveries cannot be replayed.`, 'conflict', {
      details: { enabled: false },
      hint: 'Enable it first: PATCH /webhooks/{id} with {"enabled": true}.',
    });
  }
  const now = deps.clock.now().toISOString();
  const reset = await deps.webhookDeliveries.resetForReplay(webhookId, deliveryId, now, delivery.attempts.length, { feed: pull });
  if (!reset) {
    // Changed since it was read (a concurrent replay): answer with what it is now.
    const current = await deps.webhookDeliveries.get(webhookId, deliveryId);
    if (!current) throw new NotFoundError('Webhook delivery', deliveryId);
    throw notReplayable(current, endpoint);
  }
  // Back in the feed: its listener forwards it on its next read.
  if (pull) return reset;
  try {
    // A replay gets the full retry schedule again, counted from here.
    await deps.webhookDeliveryQueue.enqueue(
      {
        webhook_id: webhookId,
        delivery_id: deliveryId,
        attempt: reset.attempts.length + 1,
        retry_base: reset.retry_base ?? reset.attempts.length,
      },
      0,
    );
  } catch (error) {
    try {
      await deps.webhookDeliveries.revertReplay(
        webhookId,
        deliveryId,
        { status: delivery.status, attemptCount: reset.attempts.length },
        deps.clock.now().toISOString(),
      );
    } catch (revertError) {
      logError('webhook replay: could not revert the delivery after a failed enqueue', revertError, {
        webhook_id: webhookId,
        delivery_id: deliveryId,
      });
    }
    throw new ServiceUnavailableError('The replay could not be queued; the delivery is unchanged. Retry in a moment.', { cause: error });
  }
  return reset;
}

/** Attempts per endpoint when concurrent changes keep moving its filter. */
const DETACH_ATTEMPTS = 5;

/**
 * A tenant's deletion: it leaves every endpoint's tenant filter (kept by external_id); an endpoint that
 * listened only to it is disabled. Each change is conditional on the filter read, so a concurrent
 * PATCH is re-read, never overwritten. Idempotent: endpoints without the tenant are left alone.
 *
 * Which endpoints: those the tenant's `webhook_ids` names, read strongly consistently after the tenant
 * was marked (every filter written since names only live tenants, so none can take it afterwards), and
 * those the account's listing shows with it (endpoints written before `webhook_ids` existed; the listing
 * alone is an index, and may miss an endpoint written a moment before).
 */
export async function detachTenantFromWebhooks(
  deps: {
    webhooks: Pick<WebhookRepository, 'listForAccount' | 'get' | 'replaceTenantFilter'>;
    tenants: Pick<TenantRepository, 'webhookIdsOf'>;
  },
  tenant: Pick<Tenant, 'account_id' | 'external_id'>,
  now: string,
): Promise<void> {
  const recorded = await deps.tenants.webhookIdsOf(tenant);
  const listed = (await deps.webhooks.listForAccount(tenant.account_id))
    .filter((endpoint) => endpoint.tenants?.includes(tenant.external_id))
    .map((endpoint) => endpoint.id);
  for (const webhookId of new Set([...recorded, ...listed])) {
    for (let attempt = 1; ; attempt++) {
      const current = (await deps.webhooks.get(webhookId))?.endpoint;
      const next = current && current.account_id === tenant.account_id ? withoutTenant(current, tenant.external_id) : null;
      if (!current || !next) break;
      if (await deps.webhooks.replaceTenantFilter(current.id, current.tenants!, next, now)) break;
      if (attempt >= DETACH_ATTEMPTS)
        throw new Error(`webhook ${current.id} kept changing while tenant ${tenant.external_id} was removed from its filter`);
    }
  }
}
