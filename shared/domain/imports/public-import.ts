/**
 * An import as the API shows it: the head, every report part merged, and what is derived from them on
 * each read (template_map, code_changes, agent_prompt), never stored; and the summary the list shows.
 */
import { agentPrompt } from './agent-prompt';
import { codeChanges } from './code-changes';
import { pendingChanges } from './dns-plan';
import { cursorOf, type ImportHead } from './import';
import type { ReportPart } from './report';

export type PublicImport = ReturnType<typeof toPublicImport>;

/** The full report. `secrets`: webhook secrets created by the request being answered (shown once). */
export function toPublicImport(head: ImportHead, report: ReportPart, apiBaseUrl: string, secrets: ReadonlyMap<string, string> = new Map()) {
  const templateMap = report.templates.items
    .filter((item) => item.status !== 'failed')
    .map((item) => ({ source_id: item.source_id, alias: item.alias }));
  const webhooks = report.webhooks.items.map((item) => ({ ...item, secret: (item.webhook_id && secrets.get(item.webhook_id)) || null }));
  return {
    ...headFields(head),
    ...(head.retry_after_seconds ? { retry_after_seconds: head.retry_after_seconds } : {}),
    domains: report.domains,
    webhooks: { totals: report.webhooks.totals, items: webhooks },
    templates: report.templates,
    suppressions: report.suppressions,
    errors: report.errors,
    attention: report.attention,
    template_map: templateMap,
    code_changes: codeChanges({ provider: head.provider, baseUrl: apiBaseUrl, templateMap }),
    agent_prompt: agentPrompt({
      provider: head.provider,
      baseUrl: apiBaseUrl,
      templateMap,
      webhooks: report.webhooks.items
        .filter((item) => item.status === 'imported' || item.status === 'would_import')
        .map((item) => ({ url: item.url, events: item.events, unmapped_events: item.unmapped_events })),
      domains: report.domains.items
        .filter((item) => item.status !== 'failed')
        .map((item) => ({ name: item.name, pending_changes: pendingChanges(item.dns_plan) })),
      suppressionsImported: report.suppressions.totals.imported,
    }),
  };
}

/** What the report and the list show of every import. */
function headFields(head: ImportHead) {
  return {
    object: 'migration' as const,
    id: head.id,
    provider: head.provider,
    region: head.region,
    resources: head.resources,
    dry_run: head.dry_run,
    status: head.status,
    has_more: head.has_more,
    next_cursor: head.has_more ? cursorOf(head) : null,
    requests: head.requests,
    created_at: head.created_at,
    updated_at: head.updated_at,
  };
}

export function toImportSummary(head: ImportHead) {
  return { ...headFields(head), totals: head.totals };
}
