/**
 * An aggregate report as RFC 7489 Appendix C describes it (https://www.rfc-editor.org/rfc/rfc7489#appendix-C),
 * as fast-xml-parser gives it (./read-xml.ts: every value a trimmed string, namespace prefixes removed,
 * `record`, `auth_results/dkim`, `auth_results/spf`, `error` and `reason` always lists). Unknown elements
 * (Microsoft's `envelope_to`, DMARCbis's `np`, `testing`, `discovery_method`, `human_result`) are dropped;
 * every kept field is bounded (./limits.ts). What receivers write loosely is read loosely: keywords in
 * any case, `sp`, `pct`, `adkim`, `aspf` and `policy_evaluated`'s `dkim`/`spf` optional (a missing
 * result is a fail), an empty `auth_results`.
 */
import * as z from 'zod';
import { FIELD_MAX, MAX_AUTH_RESULTS, MAX_RECORDS } from './limits';

const text = (max: number) => z.string().max(max);
const keyword = z
  .string()
  .max(FIELD_MAX.keyword)
  .transform((value) => value.toLowerCase());
const integer = (max: number) =>
  z
    .string()
    .regex(/^\d{1,15}$/, 'a whole number')
    .transform(Number)
    .pipe(z.number().int().min(0).max(max));
const optionalText = (max: number) => text(max).optional();

export const DISPOSITIONS = ['none', 'quarantine', 'reject'] as const;
export type Disposition = (typeof DISPOSITIONS)[number];

const disposition = keyword.pipe(z.enum(DISPOSITIONS));
/** policy_evaluated's DKIM and SPF: the DMARC-aligned outcome (pass or fail). */
const alignedResult = keyword
  .pipe(z.enum(['pass', 'fail']))
  .optional()
  .default('fail');

const dkimAuthSchema = z.object({
  domain: text(FIELD_MAX.domain),
  selector: optionalText(FIELD_MAX.selector),
  result: keyword,
});

const spfAuthSchema = z.object({
  domain: text(FIELD_MAX.domain),
  scope: keyword.optional(),
  result: keyword,
});

const recordSchema = z.object({
  row: z.object({
    source_ip: z.union([z.ipv4(), z.ipv6()]),
    count: integer(1_000_000_000),
    policy_evaluated: z.object({
      disposition,
      dkim: alignedResult,
      spf: alignedResult,
    }),
  }),
  identifiers: z.object({
    header_from: text(FIELD_MAX.domain),
    envelope_from: optionalText(FIELD_MAX.domain),
  }),
  auth_results: z
    .object({
      dkim: z.array(dkimAuthSchema).max(MAX_AUTH_RESULTS).optional().default([]),
      spf: z.array(spfAuthSchema).max(MAX_AUTH_RESULTS).optional().default([]),
    })
    // `<auth_results/>` reads as an empty string.
    .or(z.literal('').transform(() => ({ dkim: [], spf: [] }))),
});

export const feedbackSchema = z.object({
  report_metadata: z.object({
    org_name: text(FIELD_MAX.org_name).min(1),
    email: text(FIELD_MAX.email),
    extra_contact_info: optionalText(FIELD_MAX.text),
    report_id: text(FIELD_MAX.report_id).min(1),
    date_range: z
      .object({ begin: integer(99_999_999_999), end: integer(99_999_999_999) })
      .refine((range) => range.begin <= range.end, 'date_range ends before it begins'),
  }),
  policy_published: z.object({
    domain: text(FIELD_MAX.domain)
      .min(1)
      .transform((value) => value.toLowerCase().replace(/\.$/, '')),
    adkim: keyword.optional(),
    aspf: keyword.optional(),
    p: disposition,
    sp: disposition.optional(),
    pct: integer(100).optional(),
  }),
  record: z.array(recordSchema).min(1).max(MAX_RECORDS),
});

export const reportDocumentSchema = z.object({ feedback: feedbackSchema });

export type AggregateReport = z.output<typeof feedbackSchema>;
export type ReportRecord = AggregateReport['record'][number];
