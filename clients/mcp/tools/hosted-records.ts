/**
 * The records a host the service serves for a domain lists to publish (the hosted MTA-STS policy's tools,
 * ./mta-sts.ts; the link domain's, ./link-domain.ts), as the tools explain and sum them up.
 */
import { hostedRecordLine, type HostedRecord } from '../../api/hosted-records';

/** What each record is for, for the tools' descriptions. */
export function recordsExplained(purposes: Readonly<Record<string, string>>): string {
  return `Records, in the order to publish them: ${Object.entries(purposes)
    .map(([purpose, what]) => `${purpose}: ${what}`)
    .join('; ')}.`;
}

/** Each record, one line: what it is for, whether needed and found, what to publish, what the last check found. */
export function recordLines(records: readonly HostedRecord[]): string[] {
  return records.map((record) => {
    const found = record.found?.length ? ` Found: ${record.found.join(', ')}.` : '';
    return `- ${record.purpose} (${record.required ? 'required' : 'recommended'}, ${record.status}): ${hostedRecordLine(record)}.${found}`;
  });
}
