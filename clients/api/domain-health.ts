/**
 * Domain health and DMARC figures as the clients read them (GET/POST /domains/{id}/health,
 * GET /domains/{id}/dmarc; docs/deliverability.md, "Domain health" and "DMARC aggregate reports"): the
 * answers' types and the words both the CLI and the MCP server use to sum them up. The types come from the
 * API's own records (type-only imports: nothing of shared/ runs in the clients).
 */
import type { StoredDomainHealth } from '#shared/usecases/domains/stored-health';
import type { DmarcFigures } from '#shared/usecases/dmarc/figures';

export type DomainHealth = StoredDomainHealth;
export type HealthFinding = DomainHealth['findings'][number];
export type { DmarcFigures };
export type DmarcPart = DmarcFigures['totals'];

/** "2 open findings (1 high, 1 low)", or "no open findings". */
export function healthCounts(health: DomainHealth): string {
  const { open, high, low } = health.summary;
  if (open === 0) return 'no open findings';
  return `${open} open ${open === 1 ? 'finding' : 'findings'} (${high} high, ${low} low)`;
}

/** The record a finding asks to publish, "TYPE name value"; undefined when none fixes it. */
export function recordToPublish(finding: HealthFinding): string | undefined {
  return finding.record ? `${finding.record.type} ${finding.record.name} ${finding.record.value}` : undefined;
}

/** "example.com (dom_1): checked <when>, next check <when>: 2 open findings (1 high, 1 low)" */
export function healthLine(health: DomainHealth): string {
  return `${health.domain} (${health.domain_id}): checked ${health.checked_at}, next check ${health.next_check_at}: ${healthCounts(health)}`;
}

/** A pass rate (0-1) as a percentage: 0.9876 -> "98.76%". */
export function percent(rate: number): string {
  return `${Math.round(rate * 10_000) / 100}%`;
}

/** "120 messages, 97.5% passed DMARC" */
export function partLine(part: DmarcPart): string {
  return `${part.messages} ${part.messages === 1 ? 'message' : 'messages'}, ${percent(part.pass_rate)} passed DMARC`;
}

/** "example.com 2026-01-01..2026-01-30: 3 reports (google.com, yahoo.com)" */
export function dmarcRangeLine(figures: DmarcFigures): string {
  const reporters = figures.reporters.length ? ` (${figures.reporters.join(', ')})` : '';
  return `${figures.domain} ${figures.since}..${figures.until}: ${figures.reports} ${figures.reports === 1 ? 'report' : 'reports'}${reporters}`;
}
