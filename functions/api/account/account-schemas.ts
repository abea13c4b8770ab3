/** Response and request schemas of the account area: its settings (GET and PATCH /account; docs/retention.md) and GET /account/stats (docs/deliverability.md, "Account stats"). */
import * as z from 'zod';
import { ACCOUNT_PAUSE_SOURCES, accountPauseFiguresSchema } from '#shared/domain/accounts/account';
import { PLAN_NAMES } from '#shared/domain/accounts/plans';
import { RETENTION_CLASSES_DAYS } from '#shared/domain/accounts/retention';
import { BOUNCE_CATEGORIES, DEFAULT_SUPPRESS_BOUNCE_CATEGORIES, type BounceCategory } from '#shared/domain/bounces/bounce-category';
import type { AccountSettings } from '#shared/usecases/account/settings';
import { describing, timestamp } from '#shared/doors/openapi/common-schemas';
import type { AccountStats } from '#shared/domain/reputation/account-stats';

const days = (what: string) =>
  z
    .number()
    .int()
    .describe(`how many days ${what} are kept (one of ${RETENTION_CLASSES_DAYS.join(', ')}, at most the plan's max_days)`);

const suppressBounceCategories = z
  .array(z.enum(BOUNCE_CATEGORIES))
  .describe(
    `the bounce categories whose bounces put the address on the suppression list (docs/deliverability.md, "Bounce categories"); default ${DEFAULT_SUPPRESS_BOUNCE_CATEGORIES.join(', ')}. Complaints always suppress; a not-sent bounce (SES's own suppression list) never does`,
  );

const retentionFields = {
  emails_days: days('sent email records, their events, bodies and attachments'),
  received_emails_days: days('received emails (record, raw message, parsed bodies and attachments)'),
  webhook_deliveries_days: days('webhook delivery logs'),
  imports_days: days('import reports'),
};

/** PATCH /account: the settings to change (each optional; the bounds are checked against the plan). */
export const updateAccountSettingsSchema = z.strictObject({
  retention: z
    .strictObject(
      Object.fromEntries(Object.entries(retentionFields).map(([name, schema]) => [name, schema.optional()])) as {
        [K in keyof typeof retentionFields]: z.ZodOptional<(typeof retentionFields)[K]>;
      },
    )
    .optional()
    .describe('the retention to change, by kind; the others stay as they are'),
  store_content: z
    .boolean({ error: 'store_content must be a boolean' })
    .optional()
    .describe(
      'false: bodies, attachments and the subject of sent emails are dropped once SES accepted them (docs/redaction.md); true: kept for the retention window',
    ),
  suppress_bounce_categories: suppressBounceCategories.optional(),
});

export const accountSettingsSchema = describing<AccountSettings>()(
  z.strictObject({
    object: z.literal('account').describe('always `account`'),
    id: z.string().describe("the account's id"),
    email: z.string().describe("the owner's email"),
    plan: z.enum(PLAN_NAMES).describe('the plan (its limits and retention bounds)'),
    tenants_enabled: z.boolean().describe('whether tenants are enabled'),
    status: z
      .enum(['active', 'paused'])
      .describe(
        '`paused`: every send is refused with 403 account_paused until an operator resumes the account (docs/deliverability.md, "Reputation guard")',
      ),
    paused_reason: z.string().nullable().describe('why it is paused (null when active)'),
    paused_at: timestamp.nullable().describe('when it was paused (null when active)'),
    pause_source: z
      .enum(ACCOUNT_PAUSE_SOURCES)
      .nullable()
      .describe('`automated`: the reputation brake; `manual`: an operator (null when active)'),
    pause_figures: accountPauseFiguresSchema
      .nullable()
      .describe(
        "the figures the reputation brake paused it on: the rule (`review_rate`: the account's own rate over AWS's review rate; `deployment_brake`: the deployment's rate near AWS's), the metric, the threshold crossed, the window in days, the account's and the deployment's sent, bounced, complained and rates (null when active or paused by hand)",
      ),
    retention: z
      .strictObject(retentionFields)
      .describe(
        "how long each kind of data is kept (the account's choice, else its plan's default); a change applies to data written after it",
      ),
    store_content: z
      .boolean()
      .describe(
        'whether sent emails keep their content (bodies, attachments, subject) after sending; false: "content not kept" (docs/redaction.md)',
      ),
    suppress_bounce_categories: suppressBounceCategories,
    retention_bounds: z
      .strictObject({
        min_days: z.number().int().describe('the shortest retention'),
        max_days: z.number().int().describe("the plan's longest retention"),
        allowed_days: z.array(z.number().int()).describe('the values accepted'),
        default_days: z.number().int().describe("the plan's default"),
      })
      .describe('what the plan allows'),
    created_at: timestamp.describe('when the account was created'),
    updated_at: timestamp.describe('when the account last changed'),
  }),
);

const count = z.number().int().min(0);
const emails = (what: string) => count.describe(`emails ${what}`);
const byCategory = z
  .strictObject(
    Object.fromEntries(
      BOUNCE_CATEGORIES.map((category) => [category, emails(`that bounced or failed delivering as ${category}`)]),
    ) as Record<BounceCategory, typeof count>,
  )
  .describe('emails that bounced or failed delivering, by bounce category (docs/deliverability.md, "Bounce categories")');

export const accountStatsSchema = describing<AccountStats>()(
  z.strictObject({
    object: z.literal('account_stats').describe('always `account_stats`'),
    days: count.describe('UTC days counted, today included (1-90, ?days)'),
    from: timestamp.describe('00:00 UTC of the first day counted (ISO 8601)'),
    sent: emails('sent (by the day each was accepted)'),
    bounced: emails('bounced'),
    complained: emails('complained about'),
    bounce_rate: z.number().describe('bounced / sent, a fraction (0 when nothing was sent)'),
    complaint_rate: z.number().describe('complained / sent, a fraction (0 when nothing was sent)'),
    bounce_categories: byCategory,
    tenants: z
      .strictObject({
        sent: emails("sent by the account's tenants"),
        bounced: emails('of its tenants bounced'),
        complained: emails('of its tenants complained about'),
      })
      .describe("the part the account's tenants sent"),
    daily: z
      .array(
        z.strictObject({
          day: z.string().describe('the UTC day (YYYY-MM-DD)'),
          sent: emails('sent'),
          bounced: emails('bounced'),
          complained: emails('complained about'),
          bounce_categories: byCategory,
        }),
      )
      .describe('one entry per UTC day, oldest first'),
  }),
);
