/** GET /account/stats (docs/deliverability.md, "Account stats"). */
import * as z from 'zod';
import { BOUNCE_CATEGORIES, type BounceCategory } from '../../../domain/bounces/bounce-category';
import type { AccountStats } from '../../../domain/reputation/account-stats';
import { describing, timestamp } from './common';

const count = z.number().int().min(0);
const emails = (what: string) => count.describe(`emails ${what}`);
const byCategory = z
  .strictObject(Object.fromEntries(BOUNCE_CATEGORIES.map((category) => [category, emails(`that bounced or failed delivering as ${category}`)])) as Record<BounceCategory, typeof count>)
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
    tenants: z.strictObject({ sent: emails("sent by the account's tenants"), bounced: emails('of its tenants bounced'), complained: emails('of its tenants complained about') }).describe("the part the account's tenants sent"),
    daily: z
      .array(z.strictObject({ day: z.string().describe('the UTC day (YYYY-MM-DD)'), sent: emails('sent'), bounced: emails('bounced'), complained: emails('complained about'), bounce_categories: byCategory }))
      .describe('one entry per UTC day, oldest first'),
  }),
);
