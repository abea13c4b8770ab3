/**
 * The stored health check's schema (./history.ts says what is stored): what the domain-health repository
 * decodes each item with, so a stored check that is not this shape is an error naming the path, never a
 * model with a missing field.
 */
import * as z from 'zod';
import { modelSchema } from '../../model-schema';
import { FINDING_TYPE_NAMES, HEALTH_CHECKS } from './finding';
import type { StoredHealth } from './history';

const outcome = z.enum(['ok', 'issues', 'error', 'skipped']);

export const storedHealthSchema = modelSchema<StoredHealth>()(
  z.object({
    checked_at: z.string(),
    version: z.number().int(),
    findings: z.array(
      z.object({
        type: z.enum(FINDING_TYPE_NAMES),
        check: z.enum(HEALTH_CHECKS),
        impact: z.enum(['high', 'low']),
        status: z.enum(['open', 'fixed']),
        message: z.string(),
        record: z.object({ type: z.enum(['TXT', 'MX']), name: z.string(), value: z.string() }).optional(),
        docs_url: z.string(),
        first_seen_at: z.string(),
        fixed_at: z.string().nullable(),
      }),
    ),
    summary: z.object({
      open: z.number().int(),
      high: z.number().int(),
      low: z.number().int(),
      spf_lookups: z.number().int().nullable(),
      // A check added after a health was stored (link_domain) reads as skipped until the next check.
      checks: z.object(
        Object.fromEntries(HEALTH_CHECKS.map((check) => [check, outcome.default('skipped')])) as Record<
          (typeof HEALTH_CHECKS)[number],
          z.ZodDefault<typeof outcome>
        >,
      ),
    }),
  }),
);
