/**
 * The reconciler's SES tenants sweep (docs/ses-tenants.md, "Reconciliation"): our tenants and SES's
 * tenants are written by different calls, so a crash or a race can leave one without the other.
 *
 *   an SES tenant named like our tenant ids, with no tenant record of ours   -> DeleteTenant, once its
 *     id is older than SES_TENANT_ORPHAN_GRACE_MS and it uses our configuration set (else reported:
 *     it may be another deployment's); orphans come from a crash between CreateTenant and the store
 *     write, or a domain verified while its tenant was being deleted (ensureTenant after DeleteTenant)
 *   a live tenant of ours whose SES tenant is missing                         -> created again, with our
 *     configuration sets and its verified domains' identities (as openSesTenant / linkTenantDomain do)
 *   a live tenant of ours whose SES tenant exists, without `ses_tls_twin`     -> the TLS-required
 *     configuration set associated, then `ses_tls_twin` recorded on our tenant (tenants opened before
 *     the set was associated, once; a tenant created since has it from its creation, so the sweep only
 *     checks that its SES tenant exists)
 *
 * The grace rule: a tenant's id is minted (its ULID time, shared/domain/ids.ts) just before POST /tenants
 * creates the SES tenant, and the same request then writes our record (an API request lasts at most
 * 30 s). An SES tenant whose id is younger than the grace may be one whose create is still running, so it
 * is never deleted; 15 minutes is far beyond any request. Ids carry the system's time, so their age is
 * measured on the system clock, never on the service clock a local test may move.
 *
 * A repair never follows a deletion's own DeleteTenant: SES is asked first and our record read after, and
 * a deletion marks the record before it deletes the SES tenant. A deletion that begins during a repair
 * may delete the SES tenant before the repair creates it: the record is read again after the repair,
 * and a tenant gone or being deleted by then has its SES tenant deleted again.
 *
 * Each sweep reads one page of each list and remembers where it stopped (shared/adapters/store/ses-tenant-sweep.ts),
 * so its work is bounded whatever the number of tenants; it runs at most every SES_TENANT_SWEEP_EVERY_MS.
 */
import { isId, timeOfId } from '../../domain/ids';
import type { Clock } from '../../ports/clock';
import type { SesTenantPage, SesTenants } from '../../ports/ses-tenants';
import type { DomainCrud } from '../../adapters/store/domains/crud';
import type { DomainTenants } from '../../adapters/store/domains/tenants';
import type { SesTenantSweepRepository, SesTenantSweepState } from '../../adapters/store/ses-tenant-sweep';
import type { TenantAlias, TenantRepository } from '../../adapters/store/tenants';
import { linkTenantDomain, openSesTenant, TLS_TWIN } from './ses-tenant-links';

/** An SES tenant without a record of ours is left alone while its id is younger than this. */
export const SES_TENANT_ORPHAN_GRACE_MS = 15 * 60_000;
/** How often a sweep runs (the reconciler itself runs every minute). */
export const SES_TENANT_SWEEP_EVERY_MS = 5 * 60_000;
/** SES tenants read per sweep (one ListTenants page), and our tenants checked per sweep (one GetTenant each). */
export const SES_TENANT_PAGE = 100;
export const OUR_TENANT_PAGE = 25;

export interface SesTenantSweepDeps {
  sesTenants: Pick<SesTenants, 'listTenants' | 'exists' | 'usesOurConfigurationSet' | 'deleteTenant' | 'ensureTenant' | 'associate'>;
  tenants: Pick<TenantRepository, 'aliases' | 'aliasPage' | 'find' | 'recordSesTlsTwin'>;
  domains: Pick<DomainTenants, 'tenantDomainIds'> & Pick<DomainCrud, 'get'>;
  sesTenantSweep: Pick<SesTenantSweepRepository, 'claim' | 'save'>;
  /** The service clock: when the sweep runs (an id's age is measured on the system's, as ids are minted). */
  clock: Clock;
}

/** What a sweep did (part of the reconciler's report: all 0 when it found nothing to do). */
export interface SesTenantSweepReport {
  /** SES tenants without a tenant of ours, deleted. */
  ses_tenants_removed: number;
  /** Tenants of ours whose SES tenant was missing, created again. */
  ses_tenants_restored: number;
  /** SES tenants without a tenant of ours that do not use our configuration set: left alone, reported. */
  ses_tenants_unowned: number;
  /** Items whose handling failed (logged; the next cycle of the sweep tries again). */
  ses_tenant_errors: number;
}

export const NO_SES_TENANT_WORK: SesTenantSweepReport = {
  ses_tenants_removed: 0,
  ses_tenants_restored: 0,
  ses_tenants_unowned: 0,
  ses_tenant_errors: 0,
};

type Log = (message: string, error: unknown) => void;

/**
 * One sweep if one is due (the reconciler's pass): claims it, reads one page of each list, records where
 * it stopped. Never throws: a failure is logged and counted, and the next sweep tries again.
 */
export async function reconcileSesTenants(deps: SesTenantSweepDeps, log: Log): Promise<SesTenantSweepReport> {
  try {
    const now = deps.clock.now().getTime();
    const state = await deps.sesTenantSweep.claim(now, now + SES_TENANT_SWEEP_EVERY_MS);
    if (!state) return { ...NO_SES_TENANT_WORK };
    const { report, next } = await sweepSesTenantPages(deps, state, log);
    await deps.sesTenantSweep.save(next);
    return report;
  } catch (error) {
    log('reconcile: the SES tenants sweep failed', error);
    return { ...NO_SES_TENANT_WORK, ses_tenant_errors: 1 };
  }
}

/** Reads one page of each list from `state` and settles what it finds; `next` is where the following sweep starts. */
export async function sweepSesTenantPages(
  deps: SesTenantSweepDeps,
  state: SesTenantSweepState,
  log: Log,
  sizes: { sesPage: number; ourPage: number } = { sesPage: SES_TENANT_PAGE, ourPage: OUR_TENANT_PAGE },
): Promise<{ report: SesTenantSweepReport; next: SesTenantSweepState }> {
  const report = { ...NO_SES_TENANT_WORK };
  const sesToken = await removeOrphans(deps, state.sesToken, sizes.sesPage, report, log);
  const aliasesAfter = await restoreMissing(deps, state.aliasesAfter, sizes.ourPage, report, log);
  return { report, next: { sesToken, aliasesAfter } };
}

/** SES's side: one page of its tenants; those named like ours with no record of ours, old enough and ours, deleted. */
async function removeOrphans(
  deps: SesTenantSweepDeps,
  token: string | null,
  pageSize: number,
  report: SesTenantSweepReport,
  log: Log,
): Promise<string | null> {
  let page: SesTenantPage;
  try {
    page = await deps.sesTenants.listTenants({ pageSize, ...(token ? { nextToken: token } : {}) });
  } catch (error) {
    report.ses_tenant_errors++;
    log('reconcile: ListTenants failed', error);
    // A token SES no longer takes is dropped: the next sweep starts the list over.
    return (error as Error).name === 'BadRequestException' ? null : token;
  }
  const names = page.tenants.map((tenant) => tenant.name).filter((name) => isId('ten', name));
  const recorded = await deps.tenants.aliases(names);
  const idNow = Date.now();
  for (const name of names) {
    if (recorded.has(name) || idNow - timeOfId(name) < SES_TENANT_ORPHAN_GRACE_MS) continue;
    try {
      if (!(await deps.sesTenants.usesOurConfigurationSet(name))) {
        report.ses_tenants_unowned++;
        continue;
      }
      await deps.sesTenants.deleteTenant(name);
      report.ses_tenants_removed++;
    } catch (error) {
      report.ses_tenant_errors++;
      log(`reconcile: SES tenant ${name} could not be checked or deleted`, error);
    }
  }
  return page.nextToken;
}

/** Our side: one page of our tenants; a live one whose SES tenant is missing gets it again. */
async function restoreMissing(
  deps: SesTenantSweepDeps,
  after: Record<string, unknown> | null,
  pageSize: number,
  report: SesTenantSweepReport,
  log: Log,
): Promise<Record<string, unknown> | null> {
  const page = await deps.tenants.aliasPage(after, pageSize);
  for (const alias of page.aliases) {
    try {
      if (await restoreSesTenant(deps, alias)) report.ses_tenants_restored++;
    } catch (error) {
      report.ses_tenant_errors++;
      log(`reconcile: the SES tenant of ${alias.id} could not be checked or restored`, error);
    }
  }
  return page.next;
}

/** The TLS-required configuration set associated with an existing SES tenant (idempotent), then recorded on our tenant. */
async function associateTlsTwin(deps: SesTenantSweepDeps, alias: TenantAlias): Promise<void> {
  await deps.sesTenants.associate(alias.id, TLS_TWIN);
  await deps.tenants.recordSesTlsTwin(alias);
}

/** True when the tenant is live and its SES tenant was missing and is now back. */
async function restoreSesTenant(deps: SesTenantSweepDeps, alias: TenantAlias): Promise<boolean> {
  const live = async () => {
    const stored = await deps.tenants.find(alias.account_id, alias.id);
    return stored !== null && !stored.deleting ? stored : null;
  };
  // SES first: a deletion marks the tenant before it deletes the SES tenant, so an SES tenant found
  // missing because of a deletion is always followed here by a record already marked.
  if (await deps.sesTenants.exists(alias.id)) {
    // Tenants opened before both configuration sets were associated get the TLS-required twin here, so
    // their TLS-enforced domains send through the tenant; once recorded, never again.
    const stored = await live();
    if (stored && !stored.sesTlsTwin) await associateTlsTwin(deps, alias);
    return false;
  }
  if (!(await live())) return false;
  await openSesTenant(deps.sesTenants, alias.id);
  for (const domainId of await deps.domains.tenantDomainIds(alias.id, 1000)) {
    const domain = (await deps.domains.get(domainId))?.domain;
    if (domain && domain.tenant_id === alias.id && domain.status === 'verified')
      await linkTenantDomain(deps.sesTenants, alias.id, domain.name);
  }
  const after = await live();
  if (after) {
    // openSesTenant associated both sets: a tenant stored before the record was kept learns it here.
    if (!after.sesTlsTwin) await deps.tenants.recordSesTlsTwin(alias);
    return true;
  }
  // Deleted meanwhile: its deletion may have deleted the SES tenant before it was created again here.
  await deps.sesTenants.deleteTenant(alias.id);
  return false;
}
