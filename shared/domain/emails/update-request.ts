/** Body of PATCH /emails/{id}: reschedule (`scheduled_at`) or cancel (`cancel: true`), one at a time. */
import * as z from 'zod';

export const updateEmailSchema = z
  .object({
    scheduled_at: z.string().optional().describe('reschedules: an ISO 8601 time with a time zone, in the future, at most 365 days ahead'),
    scheduledAt: z.string().optional().describe('alias of `scheduled_at` (the canonical name wins when both are sent)'),
    cancel: z.literal(true, { message: 'cancel must be true' }).optional().describe('true cancels the email (cancelled_at is set)'),
  })
  .strict()
  .transform(({ scheduledAt, ...rest }) => ({ ...rest, scheduled_at: rest.scheduled_at ?? scheduledAt }))
  .superRefine((value, ctx) => {
    const actions = (value.scheduled_at === undefined ? 0 : 1) + (value.cancel === undefined ? 0 : 1);
    if (actions !== 1)
      ctx.addIssue({ code: 'custom', path: [], message: 'send either {"scheduled_at": "<ISO 8601>"} or {"cancel": true}' });
  });

export type UpdateEmailInput = z.output<typeof updateEmailSchema>;
