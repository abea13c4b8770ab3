/**
 * The account's stats as GET /account/stats answers them (docs/deliverability.md, "Account stats"): sent,
 * bounced and complained emails, the rates, and the bounces by category, over some UTC days (by the day each
 * email was accepted, per email: the stats worker's account counters), in all and per day. Pure.
 */
import * as z from 'zod';
import { BOUNCE_CATEGORIES, type BounceCategory } from '../bounces/bounce-category';
import { rateOf, sumFigures, type Figures } from './figures';
import { bounceCategoryCounts } from '../tenants/stats';

export interface AccountDay extends Figures {
  day: string;
  /** Its emails that bounced or failed delivering, by bounce category. */
  categories: Record<BounceCategory, number>;
  /** The part its tenants sent. */
  tenants: Figures;
}

export function accountStatsView(perDay: readonly AccountDay[]) {
  const totals = sumFigures(perDay);
  const categories = bounceCategoryCounts({});
  for (const day of perDay) for (const category of BOUNCE_CATEGORIES) categories[category] += day.categories[category];
  return {
    object: 'account_stats' as const,
    days: perDay.length,
    from: `${perDay[0]?.day ?? ''}T00:00:00.000Z`,
    ...totals,
    bounce_rate: rateOf(totals, 'bounce'),
    complaint_rate: rateOf(totals, 'complaint'),
    bounce_categories: categories,
    tenants: sumFigures(perDay.map((day) => day.tenants)),
    daily: perDay.map((day) => ({
      day: day.day,
      sent: day.sent,
      bounced: day.bounced,
      complained: day.complained,
      bounce_categories: day.categories,
    })),
  };
}
export type AccountStats = ReturnType<typeof accountStatsView>;

/** GET /account/stats's query. */
export const accountStatsQuerySchema = z.object({
  days: z.coerce
    .number({ message: 'days must be a whole number from 1 to 90' })
    .int('days must be a whole number from 1 to 90')
    .min(1, 'days must be a whole number from 1 to 90')
    .max(90, 'days must be a whole number from 1 to 90')
    .default(30)
    .describe('UTC days counted, today included (1-90; default 30)'),
});
