import * as z from 'zod';
import { PLAN_NAMES } from './plans';
import { storedRetentionSchema } from './retention';
import { BOUNCE_CATEGORIES } from '../bounces/bounce-category';

/** `paused`: every send of the account is refused (403 account_paused) until an operator resumes it. */
export const ACCOUNT_STATUSES = ['active', 'paused'] as const;
export type AccountStatus = (typeof ACCOUNT_STATUSES)[number];

/** Who paused it: `manual` (an operator: `admin account pause`) or `automated` (the reputation brake). */
export const ACCOUNT_PAUSE_SOURCES = ['manual', 'automated'] as const;

const figuresSchema = z.object({
  sent: z.number().describe('emails sent in the window (by acceptance day)'),
  bounced: z.number().describe('of them, bounced'),
  complained: z.number().describe('of them, complained about'),
  bounce_rate: z.number().describe('bounced / sent (0.04 is 4%)'),
  complaint_rate: z.number().describe('complained / sent'),
});

/**
 * The figures the reputation brake paused an account on (docs/deliverability.md, "Reputation guard"): the rule,
 * the metric and threshold crossed, the window, the account's figures it judged (by the deployment brake,
 * its emails of no tenant) and the deployment's.
 */
export const accountPauseFiguresSchema = z.object({
  rule: z
    .enum(['review_rate', 'deployment_brake'])
    .describe(
      "`review_rate`: the account's own rate was over AWS's review rate; `deployment_brake`: the deployment's rate neared AWS's and this account drove it",
    ),
  metric: z.enum(['bounce', 'complaint']).describe('the rate that crossed'),
  threshold: z.number().describe('the threshold crossed (a rate: 0.04 is 4%)'),
  window_days: z.number().describe('UTC days of counters looked at (today and yesterday)'),
  account: figuresSchema.describe("the account's figures the rule judged (its emails of no tenant: its tenants are judged on their own)"),
  deployment: figuresSchema.describe("the deployment's figures, every account's"),
});
export type AccountPauseFigures = z.output<typeof accountPauseFiguresSchema>;

/**
 * An account (a team): the owner of keys, domains, emails. The schema of its stored item (the store
 * decodes with it: shared/adapters/store/accounts.ts) is the single source of the type.
 */
export const accountSchema = z.object({
  id: z.string(),
  email: z.string(),
  plan: z.enum(PLAN_NAMES),
  payment_method: z.boolean(),
  tenants_enabled: z.boolean(),
  /** The retention it chose, by kind (absent: its plan's default; shared/domain/accounts/retention.ts). */
  retention: storedRetentionSchema.optional(),
  /** false: sent emails' bodies, attachments and subject are dropped once SES accepted them (docs/redaction.md); absent: kept. */
  store_content: z.boolean().optional(),
  /** The bounce categories that put an address on the suppression list (docs/deliverability.md); absent: DEFAULT_SUPPRESS_BOUNCE_CATEGORIES. */
  suppress_bounce_categories: z.array(z.enum(BOUNCE_CATEGORIES)).optional(),
  /** Absent (accounts before the reputation guard, and every active one): active. */
  status: z.enum(ACCOUNT_STATUSES).optional(),
  paused_reason: z.string().nullish(),
  paused_at: z.string().nullish(),
  pause_source: z.enum(ACCOUNT_PAUSE_SOURCES).nullish(),
  /** The brake's figures when it paused the account (null for a manual pause). */
  pause_figures: accountPauseFiguresSchema.nullish(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Account = z.output<typeof accountSchema>;

/** The account's pause as every answer shows it (GET /account, account.paused, the dashboard's banner). */
export function accountPauseView(account: Account) {
  const paused = account.status === 'paused';
  return {
    status: paused ? ('paused' as const) : ('active' as const),
    paused_reason: paused ? (account.paused_reason ?? null) : null,
    paused_at: paused ? (account.paused_at ?? null) : null,
    pause_source: paused ? (account.pause_source ?? null) : null,
    pause_figures: paused ? (account.pause_figures ?? null) : null,
  };
}
