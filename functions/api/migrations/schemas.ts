/** Response schemas of the migrations group (imports from SendGrid, Postmark and Mailgun, and their reports). */
import * as z from 'zod';
import { IMPORT_STATUSES } from '#shared/domain/imports/report';
import { IMPORT_RESOURCES, PROVIDERS } from '#shared/domain/imports/source';
import type { REPORT_COLUMNS, ReportRow } from '#shared/domain/imports/report-rows';
import type { PublicImport, toImportSummary } from '#shared/domain/imports/public-import';
import { describing, idOf, timestamp } from '#shared/doors/openapi/common-schemas';

const count = z.number().int();
const countTotals = z.strictObject({
  found: count.describe('items read at the provider'),
  imported: count.describe('items imported (in a dry run: that would be)'),
  skipped: count.describe('items already here, skipped'),
  failed: count.describe('items that could not be imported (see their message)'),
});
const templateTotals = z.strictObject({
  found: count.describe('templates read at the provider (layouts merged, not counted)'),
  imported: count.describe('templates imported and published (in a dry run: that would be)'),
  skipped: count.describe('templates whose alias is already here, skipped'),
  failed: count.describe('templates that could not be converted or imported'),
  needs_attention: count.describe('templates imported as drafts to review (blocks or an unsubscribe link)'),
});
const suppressionTotals = z.strictObject({
  found: count.describe("entries read from the provider's lists"),
  imported: count.describe('entries written: suppressions and opt-outs (in a dry run: that would be)'),
  already_suppressed: count.describe('addresses already on the list'),
  skipped: count.describe('entries not imported (see skipped_reasons)'),
  failed: count.describe('entries that could not be written'),
  bounce: count.describe('imported as bounce suppressions (hard bounces, invalid addresses)'),
  complaint: count.describe('imported as complaint suppressions'),
  unsubscribe: count.describe('imported as unsubscribe suppressions (from all mail)'),
  manual: count.describe('imported as manual suppressions'),
  product_opt_out: count.describe('imported as product category opt-outs (scoped opt-outs: groups, streams, tags)'),
});
const itemStatus = () =>
  z
    .enum(['imported', 'would_import', 'needs_attention', 'skipped', 'failed'])
    .describe('imported, would_import (dry run), needs_attention (imported as a draft), skipped (already here) or failed (see message)');
const itemMessage = () => z.string().nullable().describe('why it failed or was skipped; null otherwise');

const headFields = {
  object: z.literal('migration').describe('always `migration`'),
  id: idOf('mig').describe("the import's id (mig_...)"),
  provider: z.enum(PROVIDERS).describe('the provider imported from'),
  region: z.enum(['us', 'eu']).describe("the provider's region (us for Postmark)"),
  resources: z.array(z.enum(IMPORT_RESOURCES)).describe('what is imported, in the order worked'),
  dry_run: z.boolean().describe('true for a preview: nothing written, and not kept'),
  status: z
    .enum(IMPORT_STATUSES)
    .describe(
      'in_progress while has_more; then completed, partial (a resource unreadable or some items failed) or failed (no resource readable, or every item failed)',
    ),
  has_more: z.boolean().describe('repeat the same body with cursor: next_cursor while true'),
  next_cursor: z.string().nullable().describe('the cursor of the next request; null once the import is done'),
  requests: count.describe('requests worked so far'),
  created_at: timestamp.describe('when the import started (ISO 8601)'),
  updated_at: timestamp.describe('when it last changed (ISO 8601)'),
};

export const migrationSummarySchema = describing<ReturnType<typeof toImportSummary>>()(
  z.strictObject({
    ...headFields,
    totals: z
      .strictObject({
        domains: countTotals.describe('sending domains'),
        webhooks: countTotals.describe('webhook endpoints (one per distinct URL)'),
        templates: templateTotals.describe('templates'),
        suppressions: suppressionTotals.describe('suppression list entries'),
      })
      .describe('the counts so far, per resource'),
  }),
);

const dnsChange = z.strictObject({
  action: z
    .enum(['add', 'update', 'keep', 'done'])
    .describe('add (nothing there), update (see current), keep (leave as it is) or done (already published)'),
  type: z.enum(['TXT', 'CNAME', 'MX']).describe('the DNS record type'),
  host: z.string().describe('fully qualified host name'),
  value: z.string().describe('the value to publish (add, update), that is published (done), or to leave (keep)'),
  purpose: z
    .string()
    .describe("ownership, dkim, return_path, spf, dmarc, inbound_mx; provider (the provider's record) or other (someone else's)"),
  current: z.string().nullable().describe('what is published there now (values joined with " | "); null when nothing or unchecked'),
  note: z.string().nullable().describe('an explanation for people (e.g. how SPF was merged); null when none'),
});

export const migrationSchema = describing<PublicImport>()(
  z.strictObject({
    ...headFields,
    retry_after_seconds: z.number().int().optional().describe('the provider rate-limited the import: wait this long before continuing'),
    domains: z
      .strictObject({
        totals: countTotals.describe('the counts'),
        items: z
          .array(
            z.strictObject({
              name: z.string().describe('the domain name'),
              status: itemStatus(),
              domain_id: idOf('dom').nullable().describe('the domain here (dom_...); null when none was created'),
              records: z.array(z.unknown()).describe('the DNS records to publish (as on the domain)'),
              dns_plan: z
                .strictObject({
                  checked: z.boolean().describe('false when DNS could not be read: every record of ours is then an add'),
                  changes: z.array(dnsChange).describe('what to do at each host, given what is published'),
                  keep_old_records: z
                    .string()
                    .describe("which of the provider's records to keep until the last email through it is delivered, for people"),
                })
                .nullable()
                .describe('the DNS changes to publish; null in a preview or when no plan was worked out (e.g. a failed domain)'),
              dashboard_url: z.string().nullable().describe("the domain's page in the dashboard; null when none was created"),
              message: itemMessage(),
            }),
          )
          .describe('one item per domain, in the order worked'),
      })
      .describe('sending domains'),
    webhooks: z
      .strictObject({
        totals: countTotals.describe('the counts'),
        items: z
          .array(
            z.strictObject({
              url: z.string().describe('the endpoint URL (one webhook per distinct URL)'),
              status: itemStatus(),
              webhook_id: idOf('wh').nullable().describe('the endpoint here (wh_...); null when none was created'),
              enabled: z.boolean().describe('false: imported webhooks start disabled (enable them after checking our signature)'),
              secret: z
                .string()
                .nullable()
                .describe('the signing secret: shown once, in the answer of the request that created the webhook'),
              events: z.array(z.string()).describe("our event types the provider's events map to"),
              unmapped_events: z.array(z.string()).describe("the provider's events with no equivalent here"),
              message: itemMessage(),
            }),
          )
          .describe('one item per distinct URL'),
      })
      .describe('webhook endpoints'),
    templates: z
      .strictObject({
        totals: templateTotals.describe('the counts'),
        items: z
          .array(
            z.strictObject({
              source_id: z.string().describe("the template's id at the provider"),
              name: z.string().describe("the template's name"),
              alias: z.string().describe('its alias here'),
              status: itemStatus(),
              template_id: idOf('tpl').nullable().describe('the template here (tpl_...); null when none was created'),
              published: z.boolean().describe('whether it was published (drafts are not: sends fail until published)'),
              variables: z.array(z.string()).describe('its placeholder names, converted to flat `{{name}}`'),
              notes: z.array(z.string()).describe('what the conversion changed or left to review'),
              message: itemMessage(),
            }),
          )
          .describe('one item per template (layouts are merged into them)'),
      })
      .describe('templates'),
    suppressions: z
      .strictObject({
        totals: suppressionTotals.describe('the counts'),
        skipped_reasons: z.record(z.string(), count).describe('skipped entries by reason: blocked, temporary_failure, invalid_address'),
        estimated: z.boolean().describe('true when a dry run counted only the first page of a list that has more'),
      })
      .describe('suppression list entries'),
    errors: z
      .array(
        z.strictObject({
          resource: z.enum(IMPORT_RESOURCES).describe('the resource'),
          message: z.string().describe('what could not be read and why'),
        }),
      )
      .describe('resources (or lists) that could not be read; the others still import'),
    attention: z
      .array(
        z.strictObject({
          resource: z.enum(IMPORT_RESOURCES).describe('the resource'),
          item: z.string().describe('the domain name, webhook URL or template alias concerned'),
          message: z.string().describe('what to do'),
        }),
      )
      .describe('what a person must do: publish DNS changes, enable webhooks, review drafts'),
    template_map: z
      .array(
        z.strictObject({
          source_id: z.string().describe("the template's id at the provider"),
          alias: z.string().describe('its alias here'),
        }),
      )
      .describe('provider template id to our alias, for every template imported or already here'),
    code_changes: z
      .array(
        z.strictObject({
          stack: z.string().describe('node, python, curl or smtp'),
          label: z.string().describe('what changes, for people'),
          diff: z.string().describe('a unified diff replacing the provider call with ours'),
        }),
      )
      .describe('diffs for common stacks'),
    agent_prompt: z.string().describe('a text to paste into a coding agent to finish the migration'),
  }),
);

export const migrationEnvelopeSchema = z.strictObject({ migration: migrationSchema.describe('the report so far, every request merged') });

const reportRow = describing<ReportRow>()(
  z.strictObject({
    resource: z.string().describe('domains, webhooks, templates or suppressions'),
    item: z
      .string()
      .describe('the domain name, webhook URL, template alias, or suppression count (reason); empty for an unreadable resource'),
    status: z.string().describe("the item's status (imported, skipped, ...), or error for an unreadable resource"),
    id: z.string().describe('our id of the item; empty when none'),
    count: count.describe('1 per item; the number of entries for a suppression count; 0 for an error'),
    message: z.string().describe('why it failed or was skipped, notes; empty when none'),
  }),
);

/** GET /migrations/{id}/report?format=json. */
export const migrationReportSchema = z.strictObject({
  migration: migrationSummarySchema.describe('the import and its totals'),
  columns: z
    .array(z.enum(['resource', 'item', 'status', 'id', 'count', 'message'] satisfies (typeof REPORT_COLUMNS)[number][]))
    .describe("the CSV's columns, in order"),
  rows: z.array(reportRow).describe('the rows of the CSV, as objects'),
});
