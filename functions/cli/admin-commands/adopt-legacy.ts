/**
 * `admin data adopt-legacy [--segments N]` (docs/privacy.md, "Records of before this release"): gives the
 * records an older release wrote their retention and address references
 * (shared/usecases/privacy/adopt-legacy-records.ts). Prints progress to stderr after each Scan page and the
 * counts as the command's JSON answer, recorded in the audit log under the pseudo-account `deployment`.
 * Idempotent: run it again to finish after an interruption.
 */
import { AccountRetentionLookup } from '#shared/adapters/store/account-retention';
import { LegacyRecordRepository } from '#shared/adapters/store/legacy-records';
import { buildBlobs } from '#shared/services/blobs';
import { UNKNOWN_ACCOUNT_AUDIT } from '#shared/usecases/dashboard/sign-in';
import { adoptLegacyRecords } from '#shared/usecases/privacy/adopt-legacy-records';
import type { Command } from './context';

export const adoptLegacyRecordsCommand: Command = async ({ platform, segments, audited }) => {
  let last = Date.now(); // the first line after a second: a small table prints none
  const counts = await adoptLegacyRecords(
    {
      legacyRecords: new LegacyRecordRepository(platform.table),
      retention: new AccountRetentionLookup(platform.table),
      blobs: buildBlobs(platform.config).blobs,
      clock: platform.clock,
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
  return audited(UNKNOWN_ACCOUNT_AUDIT, {}, counts);
};
