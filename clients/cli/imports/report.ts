/**
 * An import's report (docs/imports.md, "The report") as text, and how far along a running import is:
 * resources are worked in order (domains, webhooks, templates, suppressions), so a resource is done once
 * the import has moved past it.
 */

export interface Totals {
  found?: number;
  imported?: number;
  would_import?: number;
  skipped?: number;
  failed?: number;
  needs_attention?: number;
  already_suppressed?: number;
  [key: string]: number | undefined;
}

interface Section {
  totals: Totals;
  items?: Record<string, unknown>[];
}

export interface Migration {
  id: string;
  provider: string;
  status: string;
  dry_run: boolean;
  resources: string[];
  has_more: boolean;
  next_cursor: string | null;
  requests: number;
  retry_after_seconds?: number | null;
  domains?: Section | null;
  webhooks?: Section | null;
  templates?: Section | null;
  suppressions?: (Section & { skipped_reasons?: Record<string, number>; estimated?: boolean }) | null;
  errors?: { resource: string; message: string }[];
  attention?: { resource: string; item?: string; message: string }[];
}

export const RESOURCE_ORDER = ['domains', 'webhooks', 'templates', 'suppressions'] as const;

const sectionOf = (migration: Migration, resource: string) => migration[resource as (typeof RESOURCE_ORDER)[number]] ?? null;
const started = (migration: Migration, resource: string) => {
  const section = sectionOf(migration, resource);
  return (
    Boolean(section && ((section.totals.found ?? 0) > 0 || (section.items?.length ?? 0) > 0)) ||
    Boolean(migration.errors?.some((e) => e.resource === resource))
  );
};

/** How many of the selected resources are finished: all when has_more is false, else those before the last one seen started. */
export function resourcesDone(migration: Migration): number {
  const selected = RESOURCE_ORDER.filter((resource) => migration.resources.includes(resource));
  if (!migration.has_more) return selected.length;
  let lastStarted = -1;
  selected.forEach((resource, index) => {
    if (started(migration, resource)) lastStarted = index;
  });
  return Math.max(0, lastStarted);
}

const totalsText = (totals: Totals) =>
  Object.entries(totals)
    .filter(([, count]) => typeof count === 'number' && count > 0)
    .map(([name, count]) => `${name.replace(/_/g, ' ')} ${count}`)
    .join(', ') || 'none';

/** One line: what the step reported. */
export function stepNote(migration: Migration): string {
  const parts = RESOURCE_ORDER.filter((resource) => migration.resources.includes(resource) && started(migration, resource)).map(
    (resource) => {
      const totals = sectionOf(migration, resource)?.totals ?? {};
      return `${resource} ${totals.found ?? 0} found`;
    },
  );
  return `request ${migration.requests}${parts.length ? `: ${parts.join(', ')}` : ''}${migration.retry_after_seconds ? `, provider rate limit: waiting ${migration.retry_after_seconds} s` : ''}`;
}

/** The report as text: status, totals per resource, items that failed or need attention, errors, what to do next. */
export function describeReport(migration: Migration, secrets: Map<string, string> = new Map()): string {
  const lines = [
    `import ${migration.id} from ${migration.provider}${migration.dry_run ? ' (preview: nothing written)' : ''}: ${migration.status}, ${migration.requests} request${migration.requests === 1 ? '' : 's'}`,
  ];
  for (const resource of RESOURCE_ORDER) {
    if (!migration.resources.includes(resource)) continue;
    const section = sectionOf(migration, resource);
    if (!section) continue;
    lines.push(`  ${resource.padEnd(13)}${totalsText(section.totals)}`);
  }
  for (const item of migration.domains?.items ?? []) {
    const changes = (
      (item.dns_plan as { changes?: { action: string; type: string; host: string; value: string }[] } | null)?.changes ?? []
    ).filter((c) => c.action === 'add' || c.action === 'update');
    if (changes.length) {
      lines.push(`DNS changes for ${item.name as string}:`);
      for (const change of changes) lines.push(`  ${change.action} ${change.type} ${change.host} ${change.value}`);
    }
  }
  for (const item of migration.webhooks?.items ?? []) {
    const secret = (typeof item.secret === 'string' && item.secret) || secrets.get(item.url as string);
    if (secret)
      lines.push(
        `webhook ${item.url as string} (${item.webhook_id as string}, ${item.enabled ? 'enabled' : 'disabled'}): signing secret ${secret} (shown once)`,
      );
  }
  for (const resource of ['domains', 'webhooks', 'templates'] as const) {
    for (const item of migration[resource]?.items ?? []) {
      if (item.status === 'failed')
        lines.push(
          `failed ${resource.slice(0, -1)} ${(item.name ?? item.url ?? item.alias ?? item.source_id) as string}: ${item.message as string}`,
        );
    }
  }
  for (const error of migration.errors ?? []) lines.push(`error (${error.resource}): ${error.message}`);
  for (const note of migration.attention ?? [])
    lines.push(`attention (${note.resource}${note.item ? ` ${note.item}` : ''}): ${note.message}`);
  return `${lines.join('\n')}\n`;
}
