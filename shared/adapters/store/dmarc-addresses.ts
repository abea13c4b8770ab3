/**
 * Which domains send their DMARC aggregate reports to an address: `DMARCRUA#<address>` / `<dom>`, one
 * item per domain, written and deleted with the domain's `dmarc_reports_address` in one transaction
 * (shared/adapters/store/domains/settings.ts). The inbound worker asks it for each recipient of a message that
 * carries a report file (one Query each; messages without one ask nothing).
 */
import * as z from 'zod';
import { decodeItem } from './decode';
import { keys } from './keys';
import { queryAll, type Table } from './table';

export interface ReportAddressTarget {
  account_id: string;
  domain_id: string;
  /** The domain's name (lower case). */
  domain: string;
}

const targetSchema = z.object({ account_id: z.string(), domain_id: z.string(), domain: z.string() });

/** The pointer item of (address, domain): what domains.ts writes beside the domain. */
export function reportAddressItem(address: string, target: ReportAddressTarget) {
  return { ...keys.dmarcReportAddress(address, target.domain_id), type: 'dmarc_report_address', ...target };
}

export class DmarcAddressRepository {
  constructor(private readonly table: Table) {}

  /** The domains whose reports go to `address` (strongly consistent). */
  domainsFor(address: string): Promise<ReportAddressTarget[]> {
    return queryAll(
      this.table,
      {
        KeyConditionExpression: 'PK = :pk',
        ExpressionAttributeValues: { ':pk': keys.dmarcReportAddressPartition(address) },
        ConsistentRead: true,
        Limit: 100,
      },
      (item) => decodeItem(targetSchema, item, 'DmarcReportAddress'),
    );
  }
}
