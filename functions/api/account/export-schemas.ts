/** Response schemas of account exports (POST /exports, GET /exports/{id}, GET /exports; docs/exports.md). */
import * as z from 'zod';
import { EXPORT_KINDS, EXPORT_STATUSES, type ExportKind } from '#shared/domain/exports/export';
import type { toExportSummary, toPublicExport } from '#shared/domain/exports/public-export';
import { describing, idOf, nullableTimestamp, timestamp } from '#shared/doors/openapi/common-schemas';

const kindProgressSchema = z.strictObject({
  records: z.number().int().min(0).describe('records of this kind written so far'),
  done: z.boolean().describe('true once every record of this kind is written'),
});

const kindsSchema = z
  .strictObject(
    Object.fromEntries(EXPORT_KINDS.map((kind) => [kind, kindProgressSchema.describe(`the ${kind.replace('_', ' ')} written`)])) as Record<
      ExportKind,
      typeof kindProgressSchema
    >,
  )
  .describe('progress per kind, in the order they are written');

const summaryShape = {
  object: z.literal('export').describe('always `export`'),
  id: idOf('exp').describe("the export's id (exp_...)"),
  status: z.enum(EXPORT_STATUSES).describe('`running` until every kind is written (GET /exports/{id} continues it), then `completed`'),
  kinds: kindsSchema,
  created_at: timestamp.describe('when the export was started'),
  updated_at: timestamp.describe('when a part was last written'),
  completed_at: nullableTimestamp.describe('when the last part was written; null while running'),
  expires_at: timestamp.describe('when the export and its files are deleted (7 days after it started)'),
};

export const exportSummarySchema = describing<ReturnType<typeof toExportSummary>>()(z.strictObject(summaryShape));

const exportFileSchema = z.strictObject({
  kind: z.enum(EXPORT_KINDS).describe('what the file holds'),
  format: z.enum(['ndjson', 'csv']).describe('`ndjson`: one JSON record a line; `csv`: the suppressions (header in part 1 only)'),
  part: z.number().int().min(1).describe("the part's number: a kind's parts concatenated in order are its whole file"),
  size: z.number().int().min(0).describe('bytes'),
  download_url: z.string().describe('a presigned GET URL, valid until links_expire_at'),
});

export const exportSchema = describing<ReturnType<typeof toPublicExport>>()(
  z.strictObject({
    ...summaryShape,
    files: z.array(exportFileSchema).describe('every part file with its link once completed; empty while running'),
    links_expire_at: nullableTimestamp.describe(
      'when the download links stop working (1 hour after this answer; GET again for new ones); null while running',
    ),
  }),
);

export const exportEnvelopeSchema = z.strictObject({ export: exportSchema.describe('the export') });
