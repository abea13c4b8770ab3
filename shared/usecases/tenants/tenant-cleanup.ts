/**
 * What deleting a tenant undoes, as the ordered steps `deleteTenant` runs between marking the tenant
 * `deleting` and removing it (spec, DELETE /tenants/{tenant}). Once marked, nothing new can be attached
 * to the tenant (keys and domains are written with a live-tenant condition; every door answers 404), so
 * each step sees all it must undo. Every step is idempotent and works in bounded pages whose effects are
 * durable one by one: a DELETE interrupted anywhere (a crash, or the time budget below) is finished by
 * sending it again.
 *
 *   1. its scheduled emails are cancelled, as PATCH /emails/{id} {cancel} would (their places given back),
 *      first, so that none fires while the rest runs (one that fires anyway is refused at its firing);
 *   2. keys limited to the tenant are revoked (both items each): they stop working at once;
 *   3. its domains return to the account (domain, name claim `tenant_id` and membership, together);
 *   4. its suppression list and category opt-outs are deleted (their own index partitions);
 *   5. it leaves webhook endpoints' tenant filters; endpoints that listened only to it are disabled;
 *   6. its SES tenant is deleted (DeleteTenant removes its associations with our configuration set and its
 *      domains' identities; an SES tenant already gone is done). SES down: 503, and the next DELETE goes on.
 *
 * Steps 1 and 5 find what they undo in items written with the tenant's live condition (its scheduled
 * emails' list, its `webhook_ids`), read strongly consistently after the mark: a scheduled send or a
 * webhook filter racing the DELETE either commits before the mark (and is undone here) or is refused
 * with 404. Its other emails are not rewritten: they show `tenant: null` at read time once it is gone.
 */
import { ServiceUnavailableError } from '../../domain/errors';
import type { Tenant } from '../../domain/tenants/tenant';
import { logError } from '../../lib/log';
import type { Clock } from '../../ports/clock';
import type { SesTenants } from '../../ports/ses-tenants';
import type { ApiKeyRepository } from '../../adapters/store/api-keys';
import type { CategoryOptOutRepository } from '../../adapters/store/category-opt-outs';
import type { DomainCrud } from '../../adapters/store/domains/crud';
import type { DomainTenants } from '../../adapters/store/domains/tenants';
import type { SmtpCredentialRepository } from '../../adapters/store/smtp-credentials';
import type { EmailReads } from '../../adapters/store/emails/read';
import type { EmailSchedules } from '../../adapters/store/emails/schedule';
import type { SuppressionRepository } from '../../adapters/store/suppressions';
import type { TenantScheduledRepository } from '../../adapters/store/tenant-scheduled';
import type { TenantRepository } from '../../adapters/store/tenants';
import type { WebhookRepository } from '../../adapters/store/webhooks';
import { revokeTenantKeys } from '../access/api-keys';
import { cancelTenantScheduledEmails } from '../emails/scheduled-emails';
import { revokeTenantSmtpCredentials } from '../access/smtp-credentials';
import { returnAllTenantDomains } from '../domains/tenant-domains';
import { deleteTenantLists } from '../suppressions/suppressions';
import type { TenantCleanupStep } from './tenants';
import { detachTenantFromWebhooks } from '../webhooks/webhooks';

/** Time one DELETE spends on the paged steps before it answers 503 and lets the next DELETE go on (API Gateway stops waiting at 30 s). */
export const TENANT_CLEANUP_BUDGET_MS = 20_000;

export interface TenantCleanupDeps {
  apiKeys: Pick<ApiKeyRepository, 'tenantKeyIds' | 'delete'>;
  smtpCredentials: Pick<SmtpCredentialRepository, 'tenantCredentialIds' | 'delete'>;
  domains: Pick<DomainTenants, 'tenantDomainIds' | 'releaseFromTenant' | 'forgetMembership'> & Pick<DomainCrud, 'get'>;
  suppressions: Pick<SuppressionRepository, 'deleteTenantPage'>;
  categoryOptOuts: Pick<CategoryOptOutRepository, 'deleteTenantPage'>;
  webhooks: Pick<WebhookRepository, 'listForAccount' | 'get' | 'replaceTenantFilter'>;
  tenants: Pick<TenantRepository, 'webhookIdsOf'>;
  emails: Pick<EmailReads, 'get'> & Pick<EmailSchedules, 'cancelScheduled'>;
  tenantScheduled: Pick<TenantScheduledRepository, 'page' | 'forget'>;
  sesTenants: Pick<SesTenants, 'deleteTenant'>;
  clock: Clock;
  /** Defaults to TENANT_CLEANUP_BUDGET_MS. */
  budgetMs?: number;
}

function stillRunning(tenant: Tenant): ServiceUnavailableError {
  return new ServiceUnavailableError(`Deleting tenant ${tenant.external_id} needs more than one request; what is done so far stays done.`, {
    details: { tenant: tenant.external_id, deleting: true },
    hint: `Send DELETE /tenants/${tenant.external_id} again to continue.`,
  });
}

/** The deletion steps, in order (wired as `tenantCleanup` in shared/services/ses.ts). */
export function tenantCleanupSteps(deps: TenantCleanupDeps): TenantCleanupStep[] {
  const budget = deps.budgetMs ?? TENANT_CLEANUP_BUDGET_MS;
  /** `started` is when the DELETE began: every paged step shares its budget. */
  const outOfTime = (started: Date) => () => deps.clock.now().getTime() - started.getTime() >= budget;

  const cancelScheduled: TenantCleanupStep = async (tenant, started) => {
    if (!(await cancelTenantScheduledEmails(deps, tenant, outOfTime(started)))) throw stillRunning(tenant);
  };
  const revokeKeys: TenantCleanupStep = async (tenant) => {
    await revokeTenantKeys(deps, tenant);
    await revokeTenantSmtpCredentials(deps, tenant);
  };
  const returnDomains: TenantCleanupStep = async (tenant, started) => {
    if (!(await returnAllTenantDomains(deps, tenant, deps.clock.now().toISOString(), outOfTime(started)))) throw stillRunning(tenant);
  };
  const deleteLists: TenantCleanupStep = async (tenant, started) => {
    if (!(await deleteTenantLists(deps, tenant, outOfTime(started)))) throw stillRunning(tenant);
  };
  const detachWebhooks: TenantCleanupStep = (tenant) => detachTenantFromWebhooks(deps, tenant, deps.clock.now().toISOString());
  const deleteSesTenant: TenantCleanupStep = async (tenant) => {
    try {
      await deps.sesTenants.deleteTenant(tenant.id);
    } catch (error) {
      logError('could not delete the SES tenant', error, { tenant_id: tenant.id, account_id: tenant.account_id });
      throw new ServiceUnavailableError(
        `The mail provider could not delete tenant ${tenant.external_id} yet; what is done so far stays done.`,
        {
          details: { tenant: tenant.external_id, deleting: true },
          hint: `Send DELETE /tenants/${tenant.external_id} again in a moment to continue.`,
          cause: error,
        },
      );
    }
  };

  return [cancelScheduled, revokeKeys, returnDomains, deleteLists, detachWebhooks, deleteSesTenant];
}
