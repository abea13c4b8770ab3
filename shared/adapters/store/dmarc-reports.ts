/**
 * A domain's DMARC aggregate reports, as rows by day (docs/deliverability.md, "DMARC aggregate reports"):
 *
 *   report   PK DMARC#<dom>  SK REPORT#<report key>            who sent it, its range, the email it came in
 *   rows     PK DMARC#<dom>  SK <YYYY-MM-DD>#<report key>#<nn>  its source rows, ROWS_PER_ITEM an item
 *
 * The report key is the SHA-256 of (reporter org_name lower-cased, report_id): a receiver sending the
 * same report again (a retry, a second copy to another rua address of the same domain) is one report. The
 * report item and its row items are one transaction, the report item put only if absent: a report is
 * counted whole and once, never half (MAX_RECORDS rows at most: 40 row items and the report's, within
 * a transaction's 100). A range of days is one Query of the partition (`BETWEEN <since> AND <until>#~`;
 * the report items sort after every day).
 *
 * Kept as long as the account keeps received mail (`received_emails_days`, docs/retention.md) from the
 * receipt of the email that carried it; expired items are filtered out of reads (TTL deletes lazily).
 */
import { createHash } from 'node:crypto';
import * as z from 'zod';
import { retentionTtl } from '../../domain/accounts/retention';
import type { DatedRow } from '../../domain/dmarc/figures';
import { SOURCE_GROUPS } from '../../domain/dmarc/our-sending';
import type { ReportRows } from '../../domain/dmarc/report-rows';
import { retentionLookupFor } from './account-retention';
import { decodeItem } from './decode';
import { keys } from './keys';
import { cancelledConditionIndexes, queryAll, transactWrite, unexpiredFilter, type Table } from './table';

/** Source rows per item: 250 rows of ~150 bytes is ~40 KB, far under DynamoDB's 400 KB item. */
export const ROWS_PER_ITEM = 250;

export type SaveReportOutcome = 'stored' | 'duplicate';

export interface SaveReportRequest {
  accountId: string;
  domainId: string;
  report: ReportRows;
  /** The received email that carried it (inb_...), and when it came. */
  receivedEmailId: string;
  receivedAt: string;
}

const count = z.number().int().min(0);
const rowSchema = z.object({
  source_ip: z.string(),
  group: z.enum(SOURCE_GROUPS),
  messages: count,
  dmarc_pass: count,
  spf_aligned_pass: count,
  dkim_aligned_pass: count,
  disposition: z.object({ none: count, quarantine: count, reject: count }),
});
const rowsItemSchema = z.object({ SK: z.string(), day: z.string(), reporter: z.string(), rows: z.array(rowSchema) });

/** The report's dedupe key: base64url of SHA-256(lower(org_name) LF report_id), 22 characters. */
export function reportKeyOf(reporter: string, reportId: string): string {
  return createHash('sha256').update(`${reporter.toLowerCase()}\n${reportId}`).digest('base64url').slice(0, 22);
}

export class DmarcReportRepository {
  constructor(private readonly table: Table) {}

  async save(request: SaveReportRequest): Promise<SaveReportOutcome> {
    const { report, domainId } = request;
    const reportKey = reportKeyOf(report.reporter, report.report_id);
    const ttl = retentionTtl(await retentionLookupFor(this.table).daysFor(request.accountId, 'received_emails_days'), request.receivedAt);
    const chunks: ReportRows['rows'][] = [];
    for (let at = 0; at < report.rows.length; at += ROWS_PER_ITEM) chunks.push(report.rows.slice(at, at + ROWS_PER_ITEM));
    const common = {
      account_id: request.accountId,
      domain_id: domainId,
      day: report.day,
      reporter: report.reporter,
      report_id: report.report_id,
      ttl,
    };
    try {
      await transactWrite(this.table, [
        {
          Put: {
            TableName: this.table.name,
            Item: {
              ...keys.dmarcReport(domainId, reportKey),
              type: 'dmarc_report',
              ...common,
              reporter_email: report.reporter_email,
              domain: report.domain,
              begin: report.begin,
              end: report.end,
              records: report.records,
              sources: report.rows.length,
              received_email_id: request.receivedEmailId,
              received_at: request.receivedAt,
            },
            ConditionExpression: 'attribute_not_exists(PK)',
          },
        },
        ...chunks.map((rows, n) => ({
          Put: {
            TableName: this.table.name,
            Item: { ...keys.dmarcRows(domainId, report.day, reportKey, n), type: 'dmarc_rows', ...common, rows },
          },
        })),
      ]);
      return 'stored';
    } catch (error) {
      if (cancelledConditionIndexes(error).includes(0)) return 'duplicate';
      throw error;
    }
  }

  /** Every row of the domain's reports for days `since` to `until` (YYYY-MM-DD, both included), and how many reports they come from. */
  async rowsBetween(domainId: string, since: string, until: string, nowMs: number): Promise<{ rows: DatedRow[]; reports: number }> {
    const range = keys.dmarcDays(since, until);
    const expired = unexpiredFilter(nowMs);
    const items = await queryAll(
      this.table,
      {
        KeyConditionExpression: 'PK = :pk AND SK BETWEEN :from AND :to',
        ...expired,
        ExpressionAttributeValues: {
          ':pk': keys.dmarcPartition(domainId),
          ':from': range.from,
          ':to': range.to,
          ...expired.ExpressionAttributeValues,
        },
      },
      (item) => decodeItem(rowsItemSchema, item, 'DmarcRows'),
    );
    const reports = new Set(items.map((item) => item.SK.split('#')[1]));
    return {
      rows: items.flatMap((item) => item.rows.map((row) => ({ ...row, day: item.day, reporter: item.reporter }))),
      reports: reports.size,
    };
  }
}
