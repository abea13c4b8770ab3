/** The DNS records a domain must publish (spec, Domains table). Pure. */
import { dkimTxtValue } from '../../lib/dkim/keys';
import type { DnsRecord } from './domain';

export interface DnsSettings {
  returnPathHost: string;
  spfInclude: string;
  inboundMxHost: string;
}

export const INBOUND_SUBDOMAIN_LABEL = 'inbound';
export const RETURN_PATH_LABEL = 'rp';

export function ownershipValue(token: string): string {
  return `service-verification=${token}`;
}

export function spfValue(include: string): string {
  return `v=spf1 include:${include} ~all`;
}

/**
 * The DMARC record suggested to a domain: monitoring, with aggregate reports to its report address when
 * it has one (./dmarc-reports.ts: read by the service), else to dmarc@ the domain itself.
 */
export function dmarcValue(name: string, reportAddress?: string | null): string {
  return `v=DMARC1; p=none; rua=mailto:${reportAddress ?? `dmarc@${name}`}`;
}

export function expectedRecords(
  input: { name: string; ownershipToken: string; dkimSelector: string; dkimPublicKey: string; inboundSubdomain: string | null },
  settings: DnsSettings,
): DnsRecord[] {
  const records: DnsRecord[] = [
    {
      purpose: 'ownership',
      type: 'TXT',
      name: `_service.${input.name}`,
      value: ownershipValue(input.ownershipToken),
      required: true,
      status: 'pending',
    },
    {
      purpose: 'dkim',
      type: 'TXT',
      name: `${input.dkimSelector}._domainkey.${input.name}`,
      value: dkimTxtValue(input.dkimPublicKey),
      required: true,
      status: 'pending',
    },
    {
      purpose: 'return_path',
      type: 'CNAME',
      name: `${RETURN_PATH_LABEL}.${input.name}`,
      value: settings.returnPathHost,
      required: true,
      status: 'pending',
    },
    {
      purpose: 'spf',
      type: 'TXT',
      name: input.name,
      value: spfValue(settings.spfInclude),
      required: true,
      status: 'pending',
      message: `If ${input.name} already has an SPF record, add include:${settings.spfInclude} to it; never publish two.`,
    },
    { purpose: 'dmarc', type: 'TXT', name: `_dmarc.${input.name}`, value: dmarcValue(input.name), required: false, status: 'pending' },
  ];
  if (input.inboundSubdomain) records.push(inboundMxRecord(input.inboundSubdomain, settings));
  return records;
}

/** The receiving subdomain of a domain (`inbound.<domain>`): mail is received there only (docs/inbound.md). */
export const inboundSubdomainOf = (name: string) => `${INBOUND_SUBDOMAIN_LABEL}.${name}`;

/** The MX record of a receiving subdomain: reported, not required, pending until a verify finds it. */
export function inboundMxRecord(subdomain: string, settings: Pick<DnsSettings, 'inboundMxHost'>): DnsRecord {
  return {
    purpose: 'inbound_mx',
    type: 'MX',
    name: subdomain,
    value: settings.inboundMxHost,
    priority: 10,
    required: false,
    status: 'pending',
    message: 'Publish this MX record after the domain is verified, to receive mail on this subdomain.',
  };
}
