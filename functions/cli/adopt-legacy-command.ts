/**
 * `admin data adopt-legacy [--segments N]` (docs/privacy.md, "Records of before this release"): gives the
 * records an older release wrote their retention and address references
 * (shared/usecases/privacy/adopt-legacy-records.ts). Prints progress to stderr after each Scan page and the
 * counts as the command's JSON answer. Idempotent: run it again to finish after an interruption.
 */
import { createDynamoClient } from '#shared/adapters/aws/dynamo-client';
import { AccountRetentionLookup } from '#shared/adapters/store/account-retention';
import { LegacyRecordRepository } from '#shared/adapters/store/legacy-records';
import type { Services } from '#shared/services';
import { adoptLegacyRecords, type AdoptionCounts } from '#shared/usecases/privacy/adopt-legacy-records';

export async function adoptLegacyCommand(
  services: Pick<Services, 'config' | 'blobs' | 'clock'>,
  segments: number,
): Promise<AdoptionCounts> {
  const table = { client: createDynamoClient(services.config), name: services.config.tableName };
  let last = Date.now(); // the first line after a second: a small table prints none
  return adoptLegacyRecords(
    {
      legacyRecords: new LegacyRecordRepository(table),
      retention: new AccountRetentionLookup(table),
      blobs: services.blobs,
      clock: services.clock,
    },
    {
      segments,
      onProgress: (counts) => {
        // At most one line a second: a big table has thousands of pages.
        if (Date.now() - last < 1000) return;
        last = Date.now();
        process.stderr.write(
          `scanned ${counts.scanned} items; adopted ${counts.emails} emails, ${counts.received_emails} received emails, ${counts.webhook_deliveries} deliveries, ${counts.automation_runs} runs; ${counts.objects_moved} objects moved\n`,
        );
      },
    },
  );
}
