/**
 * `mailservice domains health | dmarc` (docs/deliverability.md, "Domain health" and "DMARC aggregate
 * reports"): health prints the stored check (GET /domains/{id}/health; `--now` checks DNS now with POST) as
 * a line of counts and a table of findings, open ones first as the API orders them, each with the record to
 * publish; dmarc prints the report figures (GET /domains/{id}/dmarc) over a range of UTC days, ours against
 * others, and the first page of sources. Both take a `dom_` id or the domain's name; `--json` prints the answer.
 */
import type { Command } from 'commander';
import {
  dmarcRangeLine,
  healthLine,
  partLine,
  percent,
  recordToPublish,
  type DmarcFigures,
  type DomainHealth,
} from '../../api/domain-health';
import { contextOf } from '../context';
import { UsageError } from '../errors';
import type { CliIo } from '../io';
import { formatFields, formatTable, printJson } from '../output';
import { domainIdOf } from './domains';

/** The counts line, the findings table, then what each open finding says to do. */
export function describeHealth(health: DomainHealth): string {
  const table = formatTable(
    ['impact', 'status', 'check', 'type', 'record'],
    health.findings.map((finding) => [finding.impact, finding.status, finding.check, finding.type, recordToPublish(finding)]),
    'no findings: every check passed',
  );
  const notes = health.findings.filter((finding) => finding.status === 'open').map((finding) => `${finding.type}: ${finding.message}`);
  return `${healthLine(health)}\n\n${table}${notes.length ? `\n${notes.join('\n')}\n` : ''}`;
}

/** The range and reports, totals/ours/others, then the sources of the page. */
export function describeDmarc(figures: DmarcFigures): string {
  const parts = formatFields([
    ['totals', partLine(figures.totals)],
    ['ours', partLine(figures.ours)],
    ['others', partLine(figures.others)],
  ]);
  const sources = formatTable(
    ['source ip', 'group', 'messages', 'pass rate', 'spf aligned', 'dkim aligned', 'reporters'],
    figures.sources.map((source) => [
      source.source_ip,
      source.group,
      source.messages,
      percent(source.pass_rate),
      source.spf_aligned_pass,
      source.dkim_aligned_pass,
      source.reporters.join(','),
    ]),
    'no sources reported',
  );
  const more = figures.has_more
    ? `more sources follow (--json, then GET /domains/${figures.domain_id}/dmarc?cursor=${figures.next_cursor})\n`
    : '';
  return `${dmarcRangeLine(figures)}\n${parts}\n${sources}${more}`;
}

function day(option: string, value: string | undefined): string | undefined {
  if (value !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(value))
    throw new UsageError(`${option} must be a UTC day, YYYY-MM-DD (got ${value})`);
  return value;
}

export function registerDomainHealth(domains: Command, io: CliIo): void {
  domains
    .command('health <id-or-name>')
    .description("the domain's health: SPF, DKIM, DMARC, MX, MTA-STS, TLS-RPT, BIMI findings and the records to publish")
    .option('--now', 'check DNS now (POST; needs domains:write) instead of reading the last daily check')
    .action(async (idOrName: string, options: { now?: boolean }, command: Command) => {
      const ctx = contextOf(io, command);
      const client = ctx.client();
      const path = `/domains/${encodeURIComponent(await domainIdOf(client, idOrName))}/health`;
      const health = options.now ? await client.post<DomainHealth>(path) : await client.get<DomainHealth>(path);
      if (ctx.json) return printJson(io, health);
      io.out(describeHealth(health));
    });
  domains
    .command('dmarc <id-or-name>')
    .description('DMARC aggregate report figures: pass rates of our sending and of everyone else, and the top sources')
    .option('--since <day>', 'the first UTC day, YYYY-MM-DD (default: 29 days before --until)')
    .option('--until <day>', 'the last UTC day, YYYY-MM-DD, included (default: today)')
    .action(async (idOrName: string, options: { since?: string; until?: string }, command: Command) => {
      const ctx = contextOf(io, command);
      const query = { since: day('--since', options.since), until: day('--until', options.until) };
      const client = ctx.client();
      const figures = await client.get<DmarcFigures>(`/domains/${encodeURIComponent(await domainIdOf(client, idOrName))}/dmarc`, query);
      if (ctx.json) return printJson(io, figures);
      io.out(describeDmarc(figures));
    });
}
