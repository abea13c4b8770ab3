/**
 * A domain's DNS records as an agent reads them (docs/domains.md): status first, then each record to
 * publish (type, name, value, whether required, its status and the service's message), so the agent can
 * tell its user exactly what to add at the DNS host.
 */

export interface DomainRecord {
  purpose?: string;
  type?: string;
  name?: string;
  value?: string;
  required?: boolean;
  status?: string;
  message?: string;
}

export interface DomainObject {
  id?: string;
  name?: string;
  status?: string;
  records?: DomainRecord[];
  [field: string]: unknown;
}

export function domainSummary(domain: DomainObject): string {
  const lines = [`Domain ${domain.name} (${domain.id}) is ${domain.status}.`];
  const records = domain.records ?? [];
  if (records.length > 0) {
    lines.push(domain.status === 'verified' ? 'DNS records:' : "DNS records to publish at the domain's DNS host, then verify:");
    for (const record of records) {
      const flags = [record.required === false ? 'optional' : 'required', record.status].filter(Boolean).join(', ');
      lines.push(
        `- ${record.purpose}: ${record.type} ${record.name} = ${record.value} (${flags})${record.message ? ` ${record.message}` : ''}`,
      );
    }
  }
  return lines.join('\n');
}
