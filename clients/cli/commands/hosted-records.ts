/**
 * The table of the records a host the service serves for a domain lists to publish (`domains mta-sts`,
 * ./mta-sts.ts; `domains link-domain`, ./link-domain.ts), in the API's order: what each is for, what to
 * publish, whether it is needed, whether it was found and what the last check found.
 */
import type { HostedRecord } from '../../api/hosted-records';
import { formatTable } from '../output';

export function hostedRecordsTable(records: readonly HostedRecord[], empty?: string): string {
  return formatTable(
    ['purpose', 'type', 'name', 'value', 'required', 'status', 'found'],
    records.map((record) => [
      record.purpose,
      record.type,
      record.name,
      record.value,
      record.required ? 'yes' : 'no',
      record.status,
      record.found?.join(', '),
    ]),
    empty,
  );
}
