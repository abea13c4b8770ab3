/**
 * A domain's DMARC aggregate reports setting (docs/deliverability.md, "DMARC aggregate reports"): the
 * address receivers send its reports to, on a receiving subdomain of the account (`dmarc@inbound.<domain>`
 * by default), which our MX accepts and the inbound worker reads. Pure.
 *
 * Stored as `dmarc_reports_address` on the domain (absent: off); shown as `dmarc_reports: {enabled,
 * address, authorization_record}`. The suggested DMARC record names it in `rua=`. When the address is
 * not under the domain itself, receivers check that its domain agrees to take the reports (RFC 7489
 * section 7.1): `<domain>._report._dmarc.<report domain> TXT "v=DMARC1"`, which `authorization_record`
 * gives. (RFC 7489 compares Organizational Domains, which needs the public suffix list; without it the
 * record is suggested whenever the report domain is not the domain or under it: for a report domain
 * that shares the organizational domain, an extra record receivers never ask for.)
 */
import * as z from 'zod';

/** The default local part: `dmarc@<receiving subdomain>`. */
export const DEFAULT_REPORT_LOCAL_PART = 'dmarc';

export const dmarcReportsInputSchema = z
  .object({
    enabled: z
      .boolean({ error: 'dmarc_reports.enabled must be a boolean' })
      .describe(
        'true: aggregate reports are read at `address` and counted for this domain; false: no longer (figures already stored stay)',
      ),
    address: z
      .email({ error: 'dmarc_reports.address must be an email address' })
      .max(254, 'dmarc_reports.address is at most 254 characters')
      .transform((value) => value.toLowerCase())
      .optional()
      .describe(
        "where receivers send the reports: an address on a receiving subdomain (inbound.<domain>) of a verified domain of the account; default dmarc@<this domain's receiving subdomain>",
      ),
  })
  .strict();
export type DmarcReportsInput = z.output<typeof dmarcReportsInputSchema>;

export const defaultReportAddress = (receivingSubdomain: string) => `${DEFAULT_REPORT_LOCAL_PART}@${receivingSubdomain}`;

/** `<domain>._report._dmarc.<report domain> TXT "v=DMARC1"` when the report domain is not the domain or under it; null otherwise. */
export function reportAuthorizationRecord(domain: string, address: string): { type: 'TXT'; name: string; value: string } | null {
  const reportDomain = reportDomainOf(address);
  if (!reportDomain || reportDomain === domain || reportDomain.endsWith(`.${domain}`)) return null;
  return { type: 'TXT', name: `${domain}._report._dmarc.${reportDomain}`, value: 'v=DMARC1' };
}

/** The domain part of a report address (lower case, no trailing dot); null when it has none. */
export function reportDomainOf(address: string): string | null {
  const at = address.lastIndexOf('@');
  return at <= 0 || at === address.length - 1
    ? null
    : address
        .slice(at + 1)
        .toLowerCase()
        .replace(/\.$/, '');
}

export function publicDmarcReports(domain: { name: string; dmarc_reports_address?: string | null }) {
  const address = domain.dmarc_reports_address ?? null;
  return {
    enabled: address !== null,
    address,
    authorization_record: address === null ? null : reportAuthorizationRecord(domain.name, address),
  };
}
