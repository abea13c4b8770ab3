/**
 * Domains of an import: each provider domain is added through createDomain (the same use case as
 * POST /domains: a DKIM key, the plan's domain limit, one owner per name), then its dns_plan is worked
 * out against the DNS actually published (SPF merged into the existing record, never a second one).
 * A domain already on the account is skipped (spec rule 7) but still gets its plan; one over the plan's
 * limit, or owned by another account, is failed and the rest continue (spec rule 8).
 */
import { toPublicDomain, type Domain } from '../../domain/domains/domain';
import { AppError, ConflictError } from '../../domain/errors';
import { pendingChanges, planDns, type DnsPlan } from '../../domain/imports/dns-plan';
import { countItem, emptyPart, type DomainItem } from '../../domain/imports/report';
import type { SourceDomain } from '../../domain/imports/source';
import { createDomain } from '../domains/manage';
import { publishedRecords } from './published-records';
import { afterEntries, currentPage, nextResource, workEntries, type StretchContext, type StretchResult } from './stretch';

/** Domains worked per stretch (each new one generates a DKIM key and reads DNS). */
const DOMAINS_PER_STRETCH = 5;

async function planOf(ctx: StretchContext, domain: Domain, source: SourceDomain): Promise<DnsPlan> {
  const published = await publishedRecords(ctx.deps.dns, domain.records, source.records);
  return planDns({
    domain: domain.name,
    required: domain.records,
    published,
    providerRecords: source.records,
    provider: ctx.head.provider,
  });
}

async function importDomain(ctx: StretchContext, source: SourceDomain): Promise<DomainItem> {
  const { deps, principal, head } = ctx;
  const base = { name: source.name, records: [] as unknown[], dns_plan: null, dashboard_url: null, message: null, domain_id: null };
  const urlOf = (id: string) => `${deps.dashboardUrl}/domains/${id}`;
  const existing = await deps.domains.findOwned(principal.account.id, source.name);
  if (existing) {
    const domain = existing.domain;
    return {
      ...base,
      status: 'skipped',
      domain_id: domain.id,
      records: toPublicDomain(domain).records,
      dns_plan: head.dry_run ? null : await planOf(ctx, domain, source),
      dashboard_url: urlOf(domain.id),
      message: `${source.name} is already on this account.`,
    };
  }
  if (head.dry_run) {
    const claim = await deps.domains.claimOf(source.name);
    if (claim && claim.account_id !== principal.account.id)
      return { ...base, status: 'failed', message: `${source.name} is attached to another account.` };
    return { ...base, status: 'would_import' };
  }
  try {
    const domain = await createDomain(deps, principal, { name: source.name });
    return {
      ...base,
      status: 'imported',
      domain_id: domain.id,
      records: toPublicDomain(domain).records,
      dns_plan: await planOf(ctx, domain, source),
      dashboard_url: urlOf(domain.id),
    };
  } catch (error) {
    if (error instanceof ConflictError && (error.details?.domain_id as string | undefined)) {
      // Added by someone else between the check and the write: already present.
      return {
        ...base,
        status: 'skipped',
        domain_id: error.details!.domain_id as string,
        message: `${source.name} is already on this account.`,
      };
    }
    if (error instanceof AppError && error.status < 500) return { ...base, status: 'failed', message: error.message };
    throw error;
  }
}

export async function importDomainsStretch(ctx: StretchContext): Promise<StretchResult> {
  const part = emptyPart();
  const progress = ctx.head.progress;
  const page = await currentPage(ctx, 'domains', (token) => ctx.source.listDomains(token));
  const entries = page.items.slice(progress.offset, progress.offset + DOMAINS_PER_STRETCH);
  const { worked, stop } = await workEntries(
    ctx,
    entries,
    (source) => importDomain(ctx, source),
    (item) => {
      part.domains.items.push(item);
      countItem(part.domains.totals, item.status);
      const pending = pendingChanges(item.dns_plan);
      if (pending > 0)
        part.attention.push({
          resource: 'domains',
          item: item.name,
          message: `Publish ${pending} DNS change${pending === 1 ? '' : 's'} (dns_plan), then verify the domain.`,
        });
    },
  );
  return { part, progress: afterEntries(progress, page, worked, () => nextResource(progress)), stop };
}
