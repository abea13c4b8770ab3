/**
 * The table of the records a host the service serves for a domain lists to publish (the MTA-STS section,
 * ./mta-sts-section.ts; the link domain section, ./link-domain-section.ts), in the order to publish them, each
 * with its status and what the last check found. Values from DNS are interpolated (escaped), never markup.
 */
import type { HostingRecord } from '#shared/domain/domains/hosting/host-hosting';
import { badge, html, table, type Html } from '../dashboard/pages/layout';

export function hostedRecordsTable(caption: string, records: readonly HostingRecord[], empty?: string): Html {
  const rows = records.map(
    (record) =>
      html`<tr><td>${record.purpose.replace(/_/g, ' ')}</td><td>${record.type}</td><td><code>${record.name}</code></td><td><code class="value">${record.value}</code></td><td>${record.required ? 'yes' : 'no'}</td><td>${badge(record.status)}</td><td>${record.found?.length ? html`<span class="muted">Found: ${record.found.join(' | ')}</span>` : ''}</td></tr>`,
  );
  return table(caption, ['Purpose', 'Type', 'Name', 'Value', 'Required', 'Status', 'Found'], rows, empty);
}
