/**
 * The domain health and DMARC tools (docs/deliverability.md, "Domain health" and "DMARC aggregate
 * reports"): a domain's health findings with the records to publish (GET, or POST to check now,
 * /domains/{id}/health) and what receivers reported about mail sent as it (GET /domains/{id}/dmarc).
 * Scopes: domains:write, account:read, mail:admin or full; checking now needs domains:write (or mail:admin, full).
 */
import * as z from 'zod';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ApiClient } from '../../api/client';
import {
  dmarcRangeLine,
  healthLine,
  partLine,
  percent,
  recordToPublish,
  type DmarcFigures,
  type DomainHealth,
} from '../../api/domain-health';
import { okResult, runTool } from '../result';
import { segment } from './path';

const day = (what: string) =>
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, 'a UTC day, YYYY-MM-DD')
    .optional()
    .describe(what);

/** The counts line, then each finding: open ones say what to do and what to publish. */
export function healthSummary(health: DomainHealth): string {
  const lines = [`${healthLine(health)}.`];
  for (const finding of health.findings) {
    const record = recordToPublish(finding);
    lines.push(
      `- ${finding.status} ${finding.impact} ${finding.check}/${finding.type}: ${finding.message}${record ? ` Publish: ${record}` : ''}`,
    );
  }
  return lines.join('\n');
}

/** The range, totals, ours, others, then the page of sources. */
export function dmarcSummary(figures: DmarcFigures): string {
  const lines = [
    `${dmarcRangeLine(figures)}.`,
    `Totals: ${partLine(figures.totals)}.`,
    `Ours: ${partLine(figures.ours)}.`,
    `Others: ${partLine(figures.others)}.`,
  ];
  if (figures.sources.length) lines.push(`Sources${figures.has_more ? ` (more: cursor ${figures.next_cursor})` : ''}:`);
  for (const source of figures.sources)
    lines.push(`- ${source.source_ip} (${source.group}): ${source.messages} messages, ${percent(source.pass_rate)} passed DMARC`);
  return lines.join('\n');
}

export function registerDomainHealthTools(server: McpServer, api: ApiClient): void {
  server.registerTool(
    'get_domain_health',
    {
      title: "Get a domain's health",
      description:
        "Get a domain's DNS health (GET /domains/{id}/health: the last daily check; a domain never checked is checked now), or check DNS now with check_now (POST /domains/{id}/health, about 10 seconds at most). Findings cover SPF (our include, no +all, at most 10 lookups), DKIM, DMARC (policy, reports, alignment), the receiving MX, MTA-STS, TLS-RPT, BIMI and the sender's bounce and complaint rates; each has an impact (high: mail fails authentication or is not received; low: a recommendation), a status (open, or fixed for 7 days), a message saying what to do and, when a DNS record fixes it, the record to publish. Open findings come first. Needs domains:write, account:read, mail:admin or full; check_now needs domains:write, mail:admin or full.",
      inputSchema: {
        id: z.string().min(1).describe('the domain id, dom_... (see list_domains)'),
        check_now: z.boolean().optional().describe('check DNS now (POST) instead of reading the last check (needs domains:write)'),
      },
      // Not read-only: check_now runs a check and stores it (as does the first read of a domain never checked).
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    },
    (args) =>
      runTool(async () => {
        const path = `/domains/${segment(args.id)}/health`;
        const health = args.check_now ? await api.post<DomainHealth>(path) : await api.get<DomainHealth>(path);
        return okResult(healthSummary(health), { ...health });
      }),
  );

  server.registerTool(
    'get_dmarc_figures',
    {
      title: "Get a domain's DMARC report figures",
      description:
        "What receivers reported about mail sent as a domain (GET /domains/{id}/dmarc), from the DMARC aggregate reports sent to its report address (enabled with dmarc_reports on the domain): totals, the service's own sending (ours) against everything else sending as the domain (others: its own servers, other providers, spoofers), each with its DMARC pass rate and what receivers did (none, quarantine, reject), one entry per UTC day, and the sources (IP addresses) a page at a time, most messages first. Range: since/until UTC days, both included (default the last 30 days, at most 90). A domain without reports answers zeros. Needs domains:write, account:read, mail:admin or full.",
      inputSchema: {
        id: z.string().min(1).describe('the domain id, dom_... (see list_domains)'),
        since: day('the first UTC day (YYYY-MM-DD); default 29 days before until'),
        until: day('the last UTC day (YYYY-MM-DD), included; default today'),
        group: z.enum(['ours', 'others']).optional().describe("only the sources of this group: ours (the service's sending) or others"),
        cursor: z.string().optional().describe('next_cursor of the previous page of sources, unchanged'),
      },
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    (args) =>
      runTool(async () => {
        const figures = await api.get<DmarcFigures>(`/domains/${segment(args.id)}/dmarc`, {
          since: args.since,
          until: args.until,
          group: args.group,
          cursor: args.cursor,
        });
        return okResult(dmarcSummary(figures), { ...figures });
      }),
  );
}
