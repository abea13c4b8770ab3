/**
 * GET /domains/{id}/dmarc (docs/deliverability.md, "DMARC aggregate reports"): the figures of the
 * domain's stored reports over a range of UTC days (one Query of its partition: the range is at most
 * MAX_DAYS), added up by shared/domain/dmarc/figures.ts; the sources a page at a time. 404 unless the
 * principal may see the domain, as GET /domains/{id}. The dashboard's domain page reads the same figures
 * of a domain it has read (`dmarcFiguresOf`).
 */
import { domainOwner, type Domain } from '../../domain/domains/domain';
import { rangeFigures, sourcesAfter, type RangeFigures } from '../../domain/dmarc/figures';
import { decodeSourceCursor, encodeSourceCursor, figuresRange, type DmarcFiguresQuery } from '../../domain/dmarc/figures-query';
import type { Clock } from '../../ports/clock';
import type { DmarcReportRepository } from '../../adapters/store/dmarc-reports';
import type { DomainCrud } from '../../adapters/store/domains/crud';
import type { Principal } from '../access/principal';
import { assertVisible } from '../access/visibility';

export interface DmarcFiguresDeps {
  domains: Pick<DomainCrud, 'get'>;
  dmarcReports: Pick<DmarcReportRepository, 'rowsBetween'>;
  clock: Clock;
}

export type DmarcFigures = Omit<RangeFigures, 'sources'> & {
  object: 'dmarc_figures';
  domain_id: string;
  domain: string;
  since: string;
  until: string;
  /** The domain's report address now (null: reports are not read). */
  report_address: string | null;
  sources: RangeFigures['sources'];
  has_more: boolean;
  next_cursor: string | null;
};

export async function getDmarcFigures(
  deps: DmarcFiguresDeps,
  principal: Principal,
  domainId: string,
  query: DmarcFiguresQuery,
): Promise<DmarcFigures> {
  const stored = await deps.domains.get(domainId);
  assertVisible(principal, stored && domainOwner(stored.domain), 'Domain', domainId);
  return dmarcFiguresOf(deps, stored!.domain, query);
}

export async function dmarcFiguresOf(
  deps: Omit<DmarcFiguresDeps, 'domains'>,
  domain: Pick<Domain, 'id' | 'name' | 'dmarc_reports_address'>,
  query: DmarcFiguresQuery,
): Promise<DmarcFigures> {
  const now = deps.clock.now();
  const { since, until } = figuresRange(query, now);
  const cursor = decodeSourceCursor(query.cursor);
  const { rows, reports } = await deps.dmarcReports.rowsBetween(domain.id, since, until, now.getTime());
  const figures = rangeFigures(rows, since, until, reports);
  const listed = sourcesAfter(query.group ? figures.sources.filter((source) => source.group === query.group) : figures.sources, cursor);
  const page = listed.slice(0, query.limit);
  const last = page[page.length - 1];
  const hasMore = listed.length > query.limit;
  return {
    object: 'dmarc_figures',
    domain_id: domain.id,
    domain: domain.name,
    since,
    until,
    report_address: domain.dmarc_reports_address ?? null,
    totals: figures.totals,
    ours: figures.ours,
    others: figures.others,
    reports: figures.reports,
    reporters: figures.reporters,
    days: figures.days,
    sources: page,
    has_more: hasMore,
    next_cursor: hasMore && last ? encodeSourceCursor(last) : null,
  };
}
