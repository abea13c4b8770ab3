import * as z from 'zod';
import { PLAN_NAMES } from './plans';
import { storedRetentionSchema } from './retention';
import { BOUNCE_CATEGORIES } from '../bounces/bounce-category';

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
  created_at: z.string(),
  updated_at: z.string(),
});
export type Account = z.output<typeof accountSchema>;
